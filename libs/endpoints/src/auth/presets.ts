import type { HmacPresetName } from './types';

/**
 * What the settings model needs to know about each HMAC preset: which headers carry the
 * credential (stripped from forwarding, spec "Forwarded request" rule 5), whether the preset has
 * a replay window, and what its secret looks like. The verification algorithms live in the
 * ingest gateway (`domain/auth/hmac/presets`); facts from shared/reference/signature-presets.md.
 */
export interface HmacPresetInfo {
  /** Provider name as shown to users and in activity reasons. */
  label: string;
  /** The header that is verified, lower-case. */
  signatureHeader: string;
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
  secretFormat: 'text' | 'whsec' | 'ed25519_public_key_hex';
}

export const HMAC_PRESET_INFO: { readonly [P in HmacPresetName]: HmacPresetInfo } = {
  github: {
    label: 'GitHub',
    idHeader: 'x-github-delivery',
    signatureHeader: 'x-hub-signature-256',
    // Legacy SHA-1 signature: not accepted (SHA-256 is always sent alongside), but still a MAC.
    extraCredentialHeaders: ['x-hub-signature'],
    defaultToleranceSeconds: null,
    hasTimestamp: false,
    secretFormat: 'text',
  },
  stripe: {
    label: 'Stripe',
    signatureHeader: 'stripe-signature',
    extraCredentialHeaders: [],
    defaultToleranceSeconds: 300,
    hasTimestamp: true,
    secretFormat: 'text',
  },
  slack: {
    label: 'Slack',
    signatureHeader: 'x-slack-signature',
    extraCredentialHeaders: [],
    timestampHeader: 'x-slack-request-timestamp',
    defaultToleranceSeconds: 300,
    hasTimestamp: true,
    secretFormat: 'text',
  },
  shopify: {
    label: 'Shopify',
    idHeader: 'x-shopify-webhook-id',
    signatureHeader: 'x-shopify-hmac-sha256',
    extraCredentialHeaders: [],
    defaultToleranceSeconds: null,
    hasTimestamp: false,
    secretFormat: 'text',
  },
  twilio: {
    label: 'Twilio',
    signatureHeader: 'x-twilio-signature',
    extraCredentialHeaders: [],
    defaultToleranceSeconds: null,
    hasTimestamp: false,
    secretFormat: 'text',
  },
  standard_webhooks: {
    label: 'Standard Webhooks',
    idHeader: 'webhook-id',
    signatureHeader: 'webhook-signature',
    extraCredentialHeaders: [],
    timestampHeader: 'webhook-timestamp',
    defaultToleranceSeconds: 300,
    hasTimestamp: true,
    secretFormat: 'whsec',
  },
  svix: {
    label: 'Svix',
    idHeader: 'svix-id',
    signatureHeader: 'svix-signature',
    extraCredentialHeaders: [],
    timestampHeader: 'svix-timestamp',
    defaultToleranceSeconds: 300,
    hasTimestamp: true,
    secretFormat: 'whsec',
  },
  zoom: {
    label: 'Zoom',
    signatureHeader: 'x-zm-signature',
    extraCredentialHeaders: [],
    timestampHeader: 'x-zm-request-timestamp',
    defaultToleranceSeconds: 300,
    hasTimestamp: true,
    secretFormat: 'text',
  },
  paddle: {
    label: 'Paddle',
    signatureHeader: 'paddle-signature',
    extraCredentialHeaders: [],
    // Paddle's SDK allows 5 s; a sender with clock skew can raise tolerance_seconds.
    defaultToleranceSeconds: 5,
    hasTimestamp: true,
    secretFormat: 'text',
  },
  square: {
    label: 'Square',
    signatureHeader: 'x-square-hmacsha256-signature',
    // Legacy SHA-1 signature Square may still send: not accepted, never forwarded.
    extraCredentialHeaders: ['x-square-signature'],
    defaultToleranceSeconds: null,
    hasTimestamp: false,
    secretFormat: 'text',
  },
  linear: {
    label: 'Linear',
    idHeader: 'linear-delivery',
    signatureHeader: 'linear-signature',
    extraCredentialHeaders: [],
    timestampHeader: 'linear-timestamp',
    defaultToleranceSeconds: 60,
    hasTimestamp: true,
    secretFormat: 'text',
  },
  gitlab: {
    label: 'GitLab',
    signatureHeader: 'x-gitlab-token',
    extraCredentialHeaders: [],
    defaultToleranceSeconds: null,
    hasTimestamp: false,
    secretFormat: 'text',
  },
  discord: {
    label: 'Discord',
    signatureHeader: 'x-signature-ed25519',
    extraCredentialHeaders: [],
    timestampHeader: 'x-signature-timestamp',
    // Discord documents no replay window; set tolerance_seconds to enforce one.
    defaultToleranceSeconds: null,
    hasTimestamp: true,
    secretFormat: 'ed25519_public_key_hex',
  },
};

/** Replay window in force for a custom scheme with a timestamp header and no tolerance_seconds. */
export const CUSTOM_DEFAULT_TOLERANCE_SECONDS = 300;
