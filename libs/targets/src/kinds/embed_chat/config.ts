import type { FieldError, Validation } from '@relay/contracts';
import type { SecretSealer } from '../../kind';
import { checkSwitch, openChatUrl, readChatCommon } from '../chat-config';

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

/** Save-time validation; returns the config with the URL normalized, not yet sealed (the kind seals it). */
export function validateEmbedChatConfig(input: unknown): Validation<EmbedChatConfig> {
  const errors: FieldError[] = [];
  const { raw, common } = readChatCommon(input, checkUrl, errors, ['tts']);
  checkSwitch(raw, 'tts', errors);
  if (errors.length > 0 || common === null) return { ok: false, errors };
  const config: EmbedChatConfig = { ...common };
  if (typeof raw.tts === 'boolean') config.tts = raw.tts;
  return { ok: true, value: config };
}

/**
 * Exactly the two prefixes. `ptb.`/`canary.` hosts and versioned `/api/vN/` paths reach the
 * same webhook, but the spec names two prefixes, so they are refused with the fix in the
 * message rather than silently rewritten. Messages never echo the URL: it holds the token.
 */
function checkUrl(value: unknown, errors: FieldError[]): string | null {
  const fail = (message: string): null => {
    errors.push({ field: 'config.url', message });
    return null;
  };
  if (typeof value !== 'string' || value.trim() === '') return fail('url is required');
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
 * The config as the management API shows it: host and webhook id, the token masked
 * (`https://discord.com/api/webhooks/123/****`). A URL no configured key opens shows as `****`.
 */
export function publicEmbedChatConfig(config: EmbedChatConfig, secrets: SecretSealer): Record<string, unknown> {
  const out: Record<string, unknown> = { url: redactUrl(config.url, secrets), name: config.name };
  if (config.template !== undefined) out.template = config.template;
  if (config.tts !== undefined) out.tts = config.tts;
  return out;
}

function redactUrl(stored: string, secrets: SecretSealer): string {
  try {
    const u = new URL(openChatUrl(stored, secrets));
    const m = PATH.exec(u.pathname);
    const thread = u.searchParams.get('thread_id');
    return `https://${u.hostname}/api/webhooks/${m ? m[1] : '…'}/****${thread ? `?thread_id=${thread}` : ''}`;
  } catch {
    return '****';
  }
}
