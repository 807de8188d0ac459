/**
 * The webhook target's stored configuration (spec "Relay target" → Webhook URL). Every value
 * marked "sealed" is a SecretBox ciphertext (`enc:v1:…`): the stored record never holds the
 * credential itself, and `publicConfig` shows it as `[redacted]`.
 */
export type WebhookAuth =
  | { type: 'none' }
  | { type: 'bearer'; /** sealed */ token: string }
  | { type: 'api_key'; header: string; /** sealed */ key: string }
  | { type: 'basic'; username: string; /** sealed */ password: string };

export interface CustomHeader {
  /** as entered; matched case-insensitively, sent lower-cased */
  name: string;
  /** a template (`{{originating_ip}}`, `{{uuid}}`, …); sealed when `sensitive` */
  value: string;
  sensitive: boolean;
}

/** `all` = every permitted incoming header; `list` = the named ones present on the request. */
export type ForwardHeaders = { mode: 'all' } | { mode: 'none' } | { mode: 'list'; names: string[] };

export interface WebhookSigning {
  standard_webhooks: true;
  /** sealed `whsec_…` */
  secret: string;
}

export interface WebhookConfig {
  url: string;
  enforce_https: boolean;
  auth: WebhookAuth;
  custom_headers: CustomHeader[];
  forward_headers: ForwardHeaders;
  signing: WebhookSigning | null;
}

/** Spec "Limits": custom headers per webhook destination. */
export const MAX_CUSTOM_HEADERS = 25;
export const MAX_FORWARD_NAMES = 100;
export const MAX_HEADER_NAME = 256;
export const MAX_HEADER_VALUE = 4096;
export const MAX_URL = 2048;

/**
 * The attempt could not be built from the stored configuration. Not a delivery failure the
 * destination caused: retrying cannot help until the target (or SECRETS_KEYS) is fixed.
 */
export { TargetConfigError } from '../../kind';
export type { SecretSealer } from '../../kind';
