import type { FieldError, Validation } from '@relay/contracts';
import type { SecretSealer } from '../../kind';
import { checkSwitch, openChatUrl, readChatCommon } from '../chat-config';

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

/** Save-time validation; returns the config with the URL normalized, not yet sealed (the kind seals it). */
export function validateBlockChatConfig(input: unknown): Validation<BlockChatConfig> {
  const errors: FieldError[] = [];
  const { raw, common } = readChatCommon(input, checkUrl, errors, ['markup']);
  checkSwitch(raw, 'markup', errors);
  if (errors.length > 0 || common === null) return { ok: false, errors };
  // markup defaults to on (the chat service's default)
  return { ok: true, value: { ...common, markup: raw.markup !== false } };
}

/**
 * Spec "Relay target": "webhook URL of the form https://{chat_hooks_host}/services/<path> (a
 * government-variant host also exists)". Any `<path>` of plain segments is accepted on either
 * host — the platform decides whether it names a webhook. Each message says what is wrong with
 * this URL, in terms of its own host; none echoes the path (its last segment is the secret).
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
  if (!PATH_SEGMENTS.test(path)) return fail('url path after /services/ may hold only letters, digits, "-" and "_", in segments separated by single "/"');
  return `https://${host}/services/${path}`;
}

/**
 * The config as the management API shows it: host and every path segment but the last, which
 * is masked (`https://hooks.slack.com/services/T0001/B0001/****`): the last segment is the
 * webhook's secret.
 */
export function publicBlockChatConfig(config: BlockChatConfig, secrets: SecretSealer): Record<string, unknown> {
  const out: Record<string, unknown> = { url: redactUrl(config.url, secrets), name: config.name, markup: config.markup };
  if (config.template !== undefined) out.template = config.template;
  return out;
}

function redactUrl(stored: string, secrets: SecretSealer): string {
  try {
    const u = new URL(openChatUrl(stored, secrets));
    const shown = u.pathname.slice('/services/'.length).split('/').slice(0, -1);
    return `https://${u.hostname}/services/${[...shown, '****'].join('/')}`;
  } catch {
    return '****';
  }
}
