import { PRESET_NAMES, PRESET_SPECS } from './presets/catalog';
import type { HmacPresetName } from './presets/catalog';
import type { PresetSpec, SecretFormat } from './presets/spec';

/**
 * What the settings model needs to know about each HMAC preset: which headers carry the
 * credential (stripped from forwarding, spec "Forwarded request" rule 5), whether the preset has
 * a replay window, and what its secret looks like. A view of the catalog in `presets/catalog`;
 * the ingest gateway's verification families (`domain/auth/hmac/families`) interpret the spec.
 */
export interface HmacPresetInfo {
  /** Provider name as shown to users and in activity reasons. */
  label: string;
  /** The header that is verified, lower-case; absent when the credential is in the body. */
  signatureHeader?: string;
  /** Other headers that carry a MAC and are never forwarded (e.g. GitHub's legacy SHA-1 header). */
  extraCredentialHeaders: readonly string[];
  /** Header with the signed timestamp, lower-case; also stripped from forwarding. */
  timestampHeader?: string;
  /** Header with the sender's delivery id, lower-case; forwarded (receivers dedupe on it). */
  idHeader?: string;
  /** Replay window when `tolerance_seconds` is not set; null = the preset signs no timestamp. */
  defaultToleranceSeconds: number | null;
  /** Whether `tolerance_seconds` may be set (the preset carries a timestamp). */
  hasTimestamp: boolean;
  /** Shape of each entry of `secrets`. */
  secretFormat: SecretFormat;
  /** The full description the gateway verifies with. */
  spec: PresetSpec;
}

function infoOf(spec: PresetSpec): HmacPresetInfo {
  const timestamp = spec.timestamp;
  return {
    label: spec.label,
    ...(spec.signature === undefined ? {} : { signatureHeader: spec.signature.header }),
    extraCredentialHeaders: spec.extraCredentialHeaders ?? [],
    ...(timestamp?.header !== undefined ? { timestampHeader: timestamp.header } : {}),
    ...(spec.id !== undefined && 'header' in spec.id ? { idHeader: spec.id.header } : {}),
    defaultToleranceSeconds: timestamp?.toleranceSeconds ?? null,
    hasTimestamp: timestamp !== undefined,
    secretFormat: spec.secret.format,
    spec,
  };
}

/** Derived from the catalog, so the settings model and the verifiers read the same description. */
export const HMAC_PRESET_INFO = Object.fromEntries(PRESET_NAMES.map((name) => [name, infoOf(PRESET_SPECS[name])])) as {
  readonly [P in HmacPresetName]: HmacPresetInfo;
};

/** Replay window in force for a custom scheme with a timestamp header and no tolerance_seconds. */
export const CUSTOM_DEFAULT_TOLERANCE_SECONDS = 300;
