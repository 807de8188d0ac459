import type { FieldError, Validation } from '@relay/contracts';
import type { SecretSealer } from '../../kind';
import { checkSwitch, openChatUrl, readChatCommon } from '../chat-config';

/** Spec "Relay target" → Block-style chat webhook. */
export interface BlockChatConfig {
  /**
   * normalized `https://{host}/services/T…/B…/{secret}`; stored sealed (`enc:v1:…`) — a
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
const PATH = /^\/services\/(T[A-Z0-9]{2,20})\/(B[A-Z0-9]{2,20})\/([A-Za-z0-9]{8,64})\/?$/;
const FORM = 'https://hooks.slack.com/services/T…/B…/…';

/** Save-time validation; returns the config with the URL normalized, not yet sealed (the kind seals it). */
export function validateBlockChatConfig(input: unknown): Validation<BlockChatConfig> {
  const errors: FieldError[] = [];
  const { raw, common } = readChatCommon(input, checkUrl, errors);
  checkSwitch(raw, 'markup', errors);
  if (errors.length > 0 || common === null) return { ok: false, errors };
  // Only known settings are stored; markup defaults to on (the chat service's default).
  return { ok: true, value: { ...common, markup: raw.markup !== false } };
}

/** Messages never echo the URL: its last segment is the webhook's secret. */
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
  if (u.protocol !== 'https:' || !HOSTS.has(host) || u.port !== '' || u.username !== '' || u.password !== '') {
    return fail(`url must start with ${ACCEPTED_HOSTS.map((h) => `https://${h}/services/`).join(' or ')}`);
  }
  if (u.search !== '') return fail('url must not have a query string');
  const m = PATH.exec(u.pathname);
  if (!m) return fail(`url must have the form ${FORM}`);
  return `https://${host}/services/${m[1]}/${m[2]}/${m[3]}`;
}

/** The config as the management API shows it: host and workspace/webhook ids, secret masked. */
export function publicBlockChatConfig(config: BlockChatConfig, secrets: SecretSealer): Record<string, unknown> {
  const out: Record<string, unknown> = { url: redactUrl(config.url, secrets), name: config.name, markup: config.markup };
  if (config.template !== undefined) out.template = config.template;
  return out;
}

function redactUrl(stored: string, secrets: SecretSealer): string {
  try {
    const u = new URL(openChatUrl(stored, secrets));
    const m = PATH.exec(u.pathname);
    return `https://${u.hostname}/services/${m ? `${m[1]}/${m[2]}` : '…'}/****`;
  } catch {
    return '****';
  }
}
