/**
 * The stored inbound-authentication setting of an endpoint (spec "Authentication / Inbound").
 * One model for the management API, which validates it at save time, and the ingest gateway,
 * which verifies requests against it.
 *
 * Every credential sits in an array of one or two entries: the second slot is what makes the
 * spec's rotation order possible ("accept old and new credentials; update; send a test
 * request; remove the old credential"). `S` is the type of a stored secret: plain strings in
 * the gateway, ciphertext at rest, `RedactedSecret` in API responses.
 */

import { PRESET_NAMES } from './presets/catalog';
import type { CertificatePresetName, HmacPresetName } from './presets/catalog';

export const INBOUND_AUTH_TYPES = ['NONE', 'BASIC', 'BEARER', 'API_KEY', 'HMAC'] as const;
export type InboundAuthType = (typeof INBOUND_AUTH_TYPES)[number];

/** At most two active credentials: the current one and the one being rotated in or out. */
export const MAX_ACTIVE_SECRETS = 2;

/** Preset names come from the preset catalog (presets/catalog), one entry per provider. */
export const HMAC_PRESETS: readonly HmacPresetName[] = PRESET_NAMES;
export type { CertificatePresetName, HmacPresetName };

export const HMAC_ALGORITHMS = ['sha1', 'sha256', 'sha512'] as const;
type HmacAlgorithm = (typeof HMAC_ALGORITHMS)[number];

export const SIGNATURE_ENCODINGS = ['hex', 'base64'] as const;
type SignatureEncoding = (typeof SIGNATURE_ENCODINGS)[number];

export const TIMESTAMP_UNITS = ['seconds', 'milliseconds'] as const;
type TimestampUnit = (typeof TIMESTAMP_UNITS)[number];

interface NoInboundAuth {
  type: 'NONE';
}

interface BasicCredential<S = string> {
  username: string;
  password: S;
}

export interface BasicInboundAuth<S = string> {
  type: 'BASIC';
  credentials: BasicCredential<S>[];
}

export interface BearerInboundAuth<S = string> {
  type: 'BEARER';
  tokens: S[];
}

export interface ApiKeyInboundAuth<S = string> {
  type: 'API_KEY';
  /** Header carrying the key; matched case-insensitively (HTTP header names are). */
  header: string;
  keys: S[];
}

/**
 * A sender-defined HMAC scheme. `template` is the signed content, built from literal text and
 * the variables {{body}} (raw bytes), {{timestamp}}, {{id}} and {{url}}, e.g. "{{timestamp}}.{{body}}".
 */
export interface CustomHmacConfig {
  algorithm: HmacAlgorithm;
  /** Header carrying the signature. */
  header: string;
  encoding: SignatureEncoding;
  /** Text before the encoded digest in the header value, e.g. "sha256=" or "v0=". */
  prefix?: string;
  template: string;
  /** Required when the template uses {{timestamp}}; enables the replay window. */
  timestamp_header?: string;
  /** Unit of the timestamp header value; default seconds. */
  timestamp_unit?: TimestampUnit;
  /** Required when the template uses {{id}}; also the delivery id deduplication reads. */
  id_header?: string;
  /** Where the delivery id is in a JSON body, as a dotted path (`data.id`), for deduplication. */
  id_json_path?: string;
}

/**
 * Deduplication on the provider's delivery id: a repeat of an id accepted within the
 * window is answered like an Idempotency-Key replay and not delivered again. On by default for
 * presets whose provider sends an id; off by default for custom schemes.
 */
interface DeliveryIdDedup {
  enabled?: boolean;
  /** Default 86400 (24 h); 60 to 604800. */
  window_seconds?: number;
}

export const DEFAULT_DEDUP_WINDOW_SECONDS = 86_400;
export const MAX_DEDUP_WINDOW_SECONDS = 604_800;

export interface HmacPresetInboundAuth<S = string> {
  type: 'HMAC';
  preset: HmacPresetName;
  /** Signing secrets; for `discord` the application's Ed25519 public key (hex). */
  secrets: S[];
  /** Overrides the preset's replay window; only for presets that carry a timestamp. */
  tolerance_seconds?: number;
  /**
   * The token Meta echoes in its subscription handshake (`hub.verify_token`); only for presets
   * with the Meta handshake. A secret: stored encrypted, never shown.
   */
  verify_token?: S;
  dedup?: DeliveryIdDedup;
}

export interface HmacCustomInboundAuth<S = string> {
  type: 'HMAC';
  preset: 'custom';
  secrets: S[];
  custom: CustomHmacConfig;
  /** Replay window; only with `custom.timestamp_header`. Default 300 s. */
  tolerance_seconds?: number;
  dedup?: DeliveryIdDedup;
}

export type HmacInboundAuth<S = string> = HmacPresetInboundAuth<S> | HmacCustomInboundAuth<S>;

export type InboundAuthSetting<S = string> =
  NoInboundAuth | BasicInboundAuth<S> | BearerInboundAuth<S> | ApiKeyInboundAuth<S> | HmacInboundAuth<S>;

/** How a secret appears in API responses: never the value itself. */
export interface RedactedSecret {
  set: true;
  /** Last four characters, only for machine-generated secrets of 16+ characters (never passwords). */
  last4?: string;
}

export type RedactedInboundAuth = InboundAuthSetting<RedactedSecret>;
