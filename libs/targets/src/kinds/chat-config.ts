import type { CheckContext, Field, Fields } from '../describe/field';
import { TargetConfigError } from '../kind';
import type { SecretSealer } from '../kind';
import { MAX_TEMPLATE_LENGTH } from './template';

/** What both chat kinds store besides their own switches. */
export interface ChatCommonConfig {
  url: string;
  name: string;
  template?: string;
}

/**
 * A platform URL check in the shape of a description hook: the URL normalised, or undefined
 * after reporting at `config.url`. Messages never echo the URL: it holds the platform's token.
 */
export type UrlCheck = (value: string, ctx: CheckContext) => string | undefined;

/**
 * The settings every chat kind has (spec "Relay target": target name; optional message template).
 * The name is the target's own name, so the dashboard asks for it once and the API fills it in.
 */
export const CHAT_NAME_AND_TEMPLATE: Fields = {
  name: {
    type: 'string',
    label: 'Target name',
    required: true,
    sameAs: 'name',
    trim: true,
    minLength: 1,
    maxLength: 100,
    message: 'name is required (1–100 characters)',
    requiredMessage: 'name is required (1–100 characters)',
  },
  template: {
    type: 'string',
    label: 'Message template (optional)',
    multiline: true,
    maxLength: MAX_TEMPLATE_LENGTH,
    help: '{{path.to.field}} over the payload; empty: the payload as is',
    check: (value: string, ctx) =>
      value.trim() === ''
        ? ctx.fail('A template of only spaces sends nothing: enter one, or leave it empty for the payload as is.')
        : undefined,
  },
};

/**
 * The settings both webhook-URL chat kinds share: the platform's webhook URL — a credential
 * (below) — then the name and template every chat kind has.
 */
export function chatCommonFields(url: {
  label: string;
  example: string;
  help: string;
  check: UrlCheck;
  mask: (stored: string, secrets: SecretSealer) => string;
}): Fields {
  return {
    url: {
      type: 'string',
      label: url.label,
      required: true,
      credential: true,
      example: url.example,
      help: url.help,
      check: url.check,
      mask: url.mask,
    },
    ...CHAT_NAME_AND_TEMPLATE,
  };
}

/** A switch that may be absent or null (unset) but otherwise must be a boolean. */
export const chatSwitch = (label: string, help: string, fallback?: boolean): Field => ({
  type: 'boolean',
  label,
  help,
  ...(fallback === undefined ? {} : { default: fallback }),
});

/** Opens the stored URL and shows it through `show`; a URL no configured key opens is `****`. */
export const maskChatUrl =
  (show: (url: URL) => string) =>
  (stored: string, secrets: SecretSealer): string => {
    try {
      return show(new URL(openChatUrl(stored, secrets)));
    } catch {
      return '****';
    }
  };

/**
 * A chat webhook URL is a credential — its path holds the platform's token — so it is stored
 * sealed like every other target secret. Sealing happens when the kind saves
 * a config; the URL is opened per attempt and to draw its masked view.
 */
export function sealChatUrl(url: string, secrets: SecretSealer): string {
  return secrets.encrypt(url);
}

/**
 * The stored URL, opened. A URL stored before sealing existed is plaintext (`https://…`, which a
 * sealed value never starts with) and passes as it is; such rows keep working and are sealed
 * by `npm run seal-target-secrets` (docs/targets-chat.md "The URL is a secret").
 */
export function openChatUrl(stored: string, secrets: SecretSealer): string {
  if (stored.startsWith('https://')) return stored;
  try {
    return secrets.decrypt(stored);
  } catch (err) {
    throw new TargetConfigError(
      'SECRET_UNREADABLE',
      `the stored webhook URL cannot be decrypted: ${(err as Error).message}`,
    );
  }
}

/** Whether a stored chat URL is still plaintext (stored before URLs were sealed). */
export const isPlaintextChatUrl = (stored: string): boolean => stored.startsWith('https://');
