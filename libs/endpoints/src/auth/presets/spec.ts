/**
 * A provider's signature scheme described as data: which headers carry what, what is
 * signed, how, and where the secret comes from. The ingest gateway interprets a description with
 * one of a few verification families; the settings model, the forwarding rules, the dashboard
 * and the preset table in docs/inbound-auth.md are all derived from the same description.
 */

/** One piece of the signed content, concatenated in order with no separator. */
export type SignedPart = 'body' | 'timestamp' | 'id' | 'url' | 'method' | { text: string };

export type MacAlgorithm = 'sha1' | 'sha256' | 'sha512' | 'md5';
export type MacEncoding = 'hex' | 'base64' | 'base64url';

/**
 * How the secret becomes key bytes: `text` its UTF-8 bytes; `whsec` the base64 after an optional
 * `whsec_` (Standard Webhooks); `base64` / `hex` the decoded value (Airtable, Close, Teams).
 */
export type MacKeyForm = 'text' | 'whsec' | 'base64' | 'hex';

/** The signature header's layout. */
export type SignatureFormat =
  /** The whole value, after an optional fixed prefix such as `sha256=`. */
  | { kind: 'plain'; prefix?: string }
  /** Several entries split on `separator`, each `prefix` + signature; other entries are ignored. */
  | { kind: 'list'; separator: string; prefix: string }
  /** `key=value` pairs split on `separator`; `signatureKey` may repeat (rotation), `timestampKey` once. */
  | { kind: 'pairs'; separator: string; signatureKey: string; timestampKey?: string }
  /** `<timestamp><separator><sig>[<separator><sig>…]` (Recurly). */
  | { kind: 'timestamp_then_signatures'; separator: string };

/** HMAC over a recipe: covers most providers. */
export interface HmacScheme {
  family: 'hmac';
  algorithm: MacAlgorithm;
  key: MacKeyForm;
  signed: readonly SignedPart[];
  encoding: MacEncoding;
  /** The URL is also tried with its default port added or removed (a proxy may change it). */
  urlPortVariants?: boolean;
}

/**
 * A shared token sent as is (no MAC), compared in constant time: in the signature header, or with
 * `bodyArrayField` in that field of every element of a top-level JSON array (Microsoft Graph's
 * `value[].clientState`), when the preset has no signature header.
 */
export interface TokenScheme {
  family: 'token';
  bodyArrayField?: { array: string; field: string };
}

/**
 * A public-key signature; the endpoint's "secrets" are the provider's public keys.
 * `ed25519_hex` / `ed25519_base64`: the raw 32-byte key; `spki_base64`: a DER SubjectPublicKeyInfo;
 * `pem`: a PEM public key as the provider publishes it (Wise).
 */
export interface PublicKeyScheme {
  family: 'public_key';
  algorithm: 'ed25519' | 'ecdsa_p256_sha256' | 'rsa_sha256';
  key: 'ed25519_hex' | 'ed25519_base64' | 'spki_base64' | 'pem';
  signed: readonly SignedPart[];
  encoding: 'hex' | 'base64';
}

/**
 * HMAC over the URL plus the POST form parameters sorted by name (name + value, no separators):
 * Twilio and Mandrill. With `bodySha256Param` (Twilio), a JSON body is covered by the URL's
 * `bodySHA256` query parameter instead.
 */
export interface UrlFormScheme {
  family: 'url_form';
  algorithm: 'sha1' | 'sha256';
  encoding: 'base64';
  bodySha256Param: boolean;
}

/**
 * A signature made with a certificate the provider publishes and names in the request: Relay
 * fetches it from the provider's documented hosts only, checks its chain, validity and subject,
 * and verifies the signature with it (docs/inbound-auth.md "Certificate-signed presets"). What
 * each provider signs is code, not data: one verifier per provider in the gateway's
 * `domain/auth/certificate/`.
 */
export interface CertificateScheme {
  family: 'certificate';
  provider: CertificateProvider;
}

export const CERTIFICATE_PROVIDERS = ['aws_sns', 'paypal'] as const;
export type CertificateProvider = (typeof CERTIFICATE_PROVIDERS)[number];

export type PresetScheme = HmacScheme | TokenScheme | PublicKeyScheme | UrlFormScheme | CertificateScheme;

export interface PresetTimestamp {
  /** Header with the timestamp; absent when it travels inside the signature header. */
  header?: string;
  /** A top-level numeric field of the JSON body that is also checked (Linear's webhookTimestamp). */
  bodyField?: string;
  unit: 'seconds' | 'milliseconds' | 'iso8601';
  /** Replay window when tolerance_seconds is not set; null: checked only when it is set. */
  toleranceSeconds: number | null;
}

/** Where the provider puts its delivery id, for dedup and for {{id}} in the signed content. */
export type PresetDeliveryId = { header: string } | { bodyPath: string };

/** The test oracle that signs this preset's requests in the preset suite. */
export type PresetOracle = { kind: 'sdk'; name: string } | { kind: 'vector'; source: string } | { kind: 'documented' };

/** What users paste and where they find it. */
export type SecretFormat =
  | 'text'
  | 'whsec'
  | 'base64'
  | 'hex'
  | 'ed25519_public_key_hex'
  | 'ed25519_public_key_base64'
  | 'public_key_spki_base64'
  | 'public_key_pem'
  /** the topic's ARN: a certificate-signed SNS message must come from this topic */
  | 'sns_topic_arn'
  /** the webhook's id in PayPal's developer dashboard: part of what PayPal signs */
  | 'paypal_webhook_id';

export interface PresetSpec {
  /** Provider name as shown to users and in activity reasons. */
  label: string;
  /** The provider's documentation page this description follows. */
  docs: string;
  scheme: PresetScheme;
  /** Absent only when the credential travels in the body (`TokenScheme.bodyArrayField`, SNS). */
  signature?: { header: string; format: SignatureFormat };
  timestamp?: PresetTimestamp;
  id?: PresetDeliveryId;
  /** Other headers that carry a MAC (legacy signatures): never accepted, never forwarded. */
  extraCredentialHeaders?: readonly string[];
  secret: { format: SecretFormat; where: string };
  oracle: PresetOracle;
  /** The provider's endpoint handshake, answered at ingest (docs/inbound-auth.md "Handshakes"). */
  handshake?: HandshakeKind;
}

/**
 * Handshakes a provider requires before it sends events. `meta_hub_challenge` checks the
 * setting's `verify_token`; the signed ones (Slack, Zoom, Twitch, Discord) pass the preset's own
 * verification first.
 */
const HANDSHAKE_KINDS = [
  'slack_url_verification',
  'zoom_url_validation',
  'twitch_callback_verification',
  'discord_ping',
  'meta_hub_challenge',
  'dropbox_challenge',
  'x_crc',
  'graph_validation_token',
  'sns_subscription_confirmation',
] as const;
export type HandshakeKind = (typeof HANDSHAKE_KINDS)[number];

/** A handshake whose answer is a MAC, with the key that signs events, over a token the requester chose. */
export interface MacHandshake {
  /** where the token travels, as the 400 names it */
  field: string;
  /**
   * The tokens answered: short base64 / base64url text. A MAC over one is never a valid event
   * signature, because the event's signed content cannot have this shape (a body in it is
   * refused as AUTH_FAILED; a recipe with a fixed `v0:` prefix never matches it).
   */
  shape: RegExp;
  /** the shape in words, for the 400 */
  described: string;
}

const TOKEN_SHAPE = {
  shape: /^[A-Za-z0-9_=+/-]{1,128}$/,
  described: '1–128 characters of A–Z, a–z, 0–9, -, _, +, / or =',
};

/**
 * Every handshake that computes a MAC (docs/inbound-auth.md "Handshakes"): X's CRC (unsigned
 * request) and Zoom's url_validation (signed request). The other kinds echo text or answer a
 * constant; none uses the event key.
 */
export const MAC_HANDSHAKES: { readonly [K in HandshakeKind]?: MacHandshake } = {
  x_crc: { field: 'crc_token', ...TOKEN_SHAPE },
  zoom_url_validation: { field: 'payload.plainToken', ...TOKEN_SHAPE },
};

/** MAC handshake answers per endpoint and minute; more are refused 429 (docs/inbound-auth.md). */
export const MAC_HANDSHAKES_PER_MINUTE = 10;
