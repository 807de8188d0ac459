import type { CheckContext, KindDescription } from '../../describe/field';
import { chatCommonFields, chatSwitch, maskChatUrl } from '../chat-config';

/** Spec "Relay target" → Block-style chat webhook. */
export interface BlockChatConfig {
  /**
   * normalized `https://{host}/services/<path>` (Slack's path is `T…/B…/{secret}`); stored sealed (`enc:v1:…`) — a
   * plaintext `https://…` is a row from before URLs were sealed
   */
  url: string;
  /** the target's name in Relay; not sent to the platform */
  name: string;
  template?: string;
  /** the chat service's own markup (mrkdwn); false sends `mrkdwn: false` */
  markup: boolean;
}

/** The commercial host and the government-variant host. */
export const ACCEPTED_HOSTS = ['hooks.slack.com', 'hooks.slack-gov.com'] as const;
const HOSTS = new Set<string>(ACCEPTED_HOSTS);
/** `<path>` of the spec's form: segments of letters, digits, `-` and `_` (Slack's are `T…/B…/<secret>`). */
const PATH_SEGMENTS = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/;
const MAX_PATH = 512;
const FORM = ACCEPTED_HOSTS.map((h) => `https://${h}/services/<path>`).join(' or ');

/**
 * Spec "Relay target": "webhook URL of the form https://{chat_hooks_host}/services/<path> (a
 * government-variant host also exists)". Any `<path>` of plain segments is accepted on either
 * host — the platform decides whether it names a webhook. Each message says what is wrong with
 * this URL, in terms of its own host; none echoes the path (its last segment is the secret).
 */
function checkUrl(value: string, ctx: CheckContext): string | undefined {
  const fail = (message: string): undefined => void ctx.fail(message);
  if (value.trim() === '') return fail('url is required');
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    return fail(`url must be an absolute URL of the form ${FORM}`);
  }
  const host = u.hostname.toLowerCase();
  if (!HOSTS.has(host)) return fail(`url host must be ${ACCEPTED_HOSTS.join(' or ')}`);
  const form = `https://${host}/services/<path>`;
  if (u.protocol !== 'https:') return fail(`url must use https: ${form}`);
  if (u.port !== '') return fail(`url must not name a port: ${form}`);
  if (u.username !== '' || u.password !== '') return fail(`url must not contain credentials: ${form}`);
  if (u.search !== '') return fail('url must not have a query string');
  if (u.hash !== '') return fail('url must not have a fragment (#…)');
  if (!u.pathname.startsWith('/services/')) return fail(`url path must start with /services/: ${form}`);
  const path = u.pathname.slice('/services/'.length).replace(/\/$/, '');
  if (path === '') return fail(`url has nothing after /services/: ${form}`);
  if (path.length > MAX_PATH) return fail(`url path after /services/ is longer than ${MAX_PATH} characters`);
  if (!PATH_SEGMENTS.test(path))
    return fail(
      'url path after /services/ may hold only letters, digits, "-" and "_", in segments separated by single "/"',
    );
  return `https://${host}/services/${path}`;
}

/**
 * Shown as host and every path segment but the last, which is masked
 * (`https://hooks.slack.com/services/T0001/B0001/****`): the last segment is the webhook's secret.
 */
const maskUrl = maskChatUrl(
  (u) =>
    `https://${u.hostname}/services/${[...u.pathname.slice('/services/'.length).split('/').slice(0, -1), '****'].join('/')}`,
);

/** Spec "Relay target" → Block-style chat webhook. */
export const blockChatDescription: KindDescription = {
  label: 'Block-style chat webhook (Slack-like)',
  help: 'An incoming webhook of a block-style chat service; docs/targets-chat.md.',
  fields: {
    ...chatCommonFields({
      label: 'Chat webhook URL',
      example: 'https://hooks.slack.com/services/T000/B000/XXXX',
      help: `${FORM}; a secret: stored sealed, shown masked`,
      check: checkUrl,
      mask: maskUrl,
    }),
    // markup defaults to on (the chat service's default)
    markup: chatSwitch(
      'Use the chat service’s own markup',
      'mrkdwn formatting of the message; off sends mrkdwn: false',
      true,
    ),
  },
};
