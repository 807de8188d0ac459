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

/**
 * Mutual TLS (docs/targets-webhook.md "Mutual TLS"): a client certificate presented in the
 * handshake, and/or a CA that alone is trusted for this target's server certificate.
 * Certificate and key come together or not at all.
 */
export interface WebhookTls {
  /** PEM: the leaf first, then any intermediates */
  client_certificate_pem?: string;
  /** sealed PEM private key (unencrypted PKCS#8, PKCS#1 or SEC1 before sealing) */
  client_key_pem?: string;
  /** PEM: one or more CA certificates; when set, the public roots are not trusted for this target */
  ca_pem?: string;
}

export interface WebhookConfig {
  url: string;
  enforce_https: boolean;
  auth: WebhookAuth;
  custom_headers: CustomHeader[];
  forward_headers: ForwardHeaders;
  signing: WebhookSigning | null;
  /** absent in targets stored before mutual TLS existed: read as null */
  tls?: WebhookTls | null;
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
