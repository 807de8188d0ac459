import type { FieldError } from '@relay/contracts';
import { TargetConfigError } from '../kind';
import type { SecretSealer } from '../kind';
import { MAX_TEMPLATE_LENGTH } from './template';

/** What both chat kinds store besides their own switches. */
export interface ChatCommonConfig {
  url: string;
  name: string;
  template?: string;
}

export type UrlCheck = (value: unknown, errors: FieldError[]) => string | null;

const COMMON_SETTINGS = ['url', 'name', 'template'];

/**
 * Reads the settings both chat kinds share (the platform-specific URL check and the kind's own
 * setting names are passed in), pushing every problem onto `errors`. Returns the raw input, for the kind's own switches,
 * and the common config — null when the URL is unusable or the input is not an object.
 */
export function readChatCommon(input: unknown, checkUrl: UrlCheck, errors: FieldError[], ownSettings: readonly string[]): { raw: Record<string, unknown>; common: ChatCommonConfig | null } {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    errors.push({ field: 'config', message: 'config must be an object' });
    return { raw: {}, common: null };
  }
  const raw = input as Record<string, unknown>;
  // an unknown setting is refused by name (as the webhook kind and endpoints do), never dropped
  // silently: a misspelt `markup` or `tts` would otherwise be saved as the default
  for (const key of Object.keys(raw)) if (!COMMON_SETTINGS.includes(key) && !ownSettings.includes(key)) errors.push({ field: `config.${key}`, message: 'unknown setting' });
  const url = checkUrl(raw.url, errors);
  const name = typeof raw.name === 'string' ? raw.name.trim() : '';
  if (name.length === 0 || name.length > 100) errors.push({ field: 'config.name', message: 'name is required (1–100 characters)' });
  if (raw.template !== undefined && raw.template !== null) {
    if (typeof raw.template !== 'string' || raw.template.trim().length === 0) {
      errors.push({ field: 'config.template', message: 'template must be a non-empty string' });
    } else if (raw.template.length > MAX_TEMPLATE_LENGTH) {
      errors.push({ field: 'config.template', message: `template must be at most ${MAX_TEMPLATE_LENGTH} characters` });
    }
  }
  if (url === null) return { raw, common: null };
  const common: ChatCommonConfig = { url, name };
  if (typeof raw.template === 'string') common.template = raw.template;
  return { raw, common };
}

/** A switch that may be absent or null (unset) but otherwise must be a boolean. */
export function checkSwitch(raw: Record<string, unknown>, key: string, errors: FieldError[]): void {
  if (raw[key] !== undefined && raw[key] !== null && typeof raw[key] !== 'boolean') errors.push({ field: `config.${key}`, message: `${key} must be true or false` });
}

/**
 * A chat webhook URL is a credential — its path holds the platform's token — so it is stored
 * sealed like every other target secret (issue 9, item 9). Sealing happens when the kind saves
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
    throw new TargetConfigError('SECRET_UNREADABLE', `the stored webhook URL cannot be decrypted: ${(err as Error).message}`);
  }
}

/** Whether a stored chat URL is still plaintext (stored before URLs were sealed). */
export const isPlaintextChatUrl = (stored: string): boolean => stored.startsWith('https://');
