import type { CheckContext, KindDescription } from '../../describe/field';
import { chatCommonFields, chatSwitch, maskChatUrl } from '../chat-config';

/** Spec "Relay target" → Embed-style chat webhook. */
export interface EmbedChatConfig {
  /**
   * normalized: one of ACCEPTED_PREFIXES + `{id}/{token}`, optionally `?thread_id=`; stored
   * sealed (`enc:v1:…`) — a plaintext `https://…` is a row from before URLs were sealed
   */
  url: string;
  /** the target's name in Relay; not sent to the platform */
  name: string;
  template?: string;
  /** destination-level tts, used only when the payload has no boolean `tts` */
  tts?: boolean;
}

/** The spec's "two accepted chat-service prefixes". */
export const ACCEPTED_PREFIXES = ['https://discord.com/api/webhooks/', 'https://discordapp.com/api/webhooks/'] as const;
const HOSTS = new Set(['discord.com', 'discordapp.com']);
const PATH = /^\/api\/webhooks\/(\d{1,20})\/([A-Za-z0-9_-]{1,200})\/?$/;
const FORM = 'https://discord.com/api/webhooks/{id}/{token}';

/**
 * Exactly the two prefixes. `ptb.`/`canary.` hosts and versioned `/api/vN/` paths reach the
 * same webhook, but the spec names two prefixes, so they are refused with the fix in the
 * message rather than silently rewritten. Messages never echo the URL: it holds the token.
 */
function checkUrl(value: string, ctx: CheckContext): string | undefined {
  const fail = (message: string): undefined => void ctx.fail(message);
  if (value.trim() === '') return fail('url is required');
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    return fail(`url must be an absolute URL starting with ${ACCEPTED_PREFIXES.join(' or ')}`);
  }
  const host = u.hostname.toLowerCase();
  if (/^(ptb|canary)\.(discord|discordapp)\.com$/.test(host)) {
    return fail(`ptb. and canary. hosts are not accepted; use the same webhook on ${ACCEPTED_PREFIXES[0]}`);
  }
  if (u.protocol !== 'https:' || !HOSTS.has(host) || u.port !== '' || u.username !== '' || u.password !== '') {
    return fail(`url must start with ${ACCEPTED_PREFIXES.join(' or ')}`);
  }
  if (/^\/api\/v\d+\//.test(u.pathname)) return fail(`versioned /api/vN/ paths are not accepted; use ${FORM}`);
  const m = PATH.exec(u.pathname);
  if (!m) return fail(`url must have the form ${FORM}`);
  const query = new URLSearchParams();
  for (const [key, v] of u.searchParams) {
    if (key === 'wait') continue; // always set to true when sending
    if (key !== 'thread_id') return fail('the only query parameter accepted is thread_id');
    if (!/^\d{1,20}$/.test(v)) return fail('thread_id must be a numeric id');
    query.set(key, v);
  }
  const search = query.toString();
  return `https://${host}/api/webhooks/${m[1]}/${m[2]}${search ? `?${search}` : ''}`;
}

/**
 * Shown as host and webhook id, the token masked (`https://discord.com/api/webhooks/123/****`).
 */
const maskUrl = maskChatUrl((u) => {
  const m = PATH.exec(u.pathname);
  const thread = u.searchParams.get('thread_id');
  return `https://${u.hostname}/api/webhooks/${m ? m[1] : '…'}/****${thread ? `?thread_id=${thread}` : ''}`;
});

/** Spec "Relay target" → Embed-style chat webhook. */
export const embedChatDescription: KindDescription = {
  label: 'Embed-style chat webhook (Discord-like)',
  help: 'A webhook of an embed-style chat service; docs/targets-chat.md.',
  fields: {
    ...chatCommonFields({
      label: 'Chat webhook URL',
      example: 'https://discord.com/api/webhooks/<id>/<token>',
      help: `${FORM}, optionally ?thread_id=; a secret: stored sealed, shown masked`,
      check: checkUrl,
      mask: maskUrl,
    }),
    // destination-level tts, used only when the payload has no boolean `tts`; unset by default
    tts: chatSwitch('Text-to-speech default', 'used when the payload has no boolean tts'),
  },
};
