import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { FieldError, Validation } from '@relay/contracts';
import { fieldOf } from '../rules/validation';
import { CUSTOM_DEFAULT_TOLERANCE_SECONDS, HMAC_PRESET_INFO } from './presets';
import { HEADER_VALUE_PATTERN, INBOUND_AUTH_SCHEMAS, PATTERN_MESSAGES } from './schema';
import { parseSignedContentTemplate, templateVariables } from './template';
import { INBOUND_AUTH_TYPES, MAX_ACTIVE_SECRETS } from './types';
import type { SecretFormat } from './presets/spec';
import type {
  ApiKeyInboundAuth,
  CustomHmacConfig,
  HmacInboundAuth,
  InboundAuthSetting,
  InboundAuthType,
} from './types';

/** Compiled on first use, so importing the lib (the gateway only verifies) compiles nothing. */
let validators: { [T in InboundAuthType]: ValidateFunction } | undefined;
function validatorFor(type: InboundAuthType): ValidateFunction {
  if (validators === undefined) {
    const ajv = new Ajv({ allErrors: true, strict: true, logger: false });
    validators = Object.fromEntries(INBOUND_AUTH_TYPES.map((t) => [t, ajv.compile(INBOUND_AUTH_SCHEMAS[t])])) as {
      [T in InboundAuthType]: ValidateFunction;
    };
  }
  return validators[type];
}

/** Field paths name the type, so a form can place the message: `inbound_auth.api_key.header`. */
const TYPE_SEGMENT: { readonly [T in InboundAuthType]: string } = {
  NONE: 'none',
  BASIC: 'basic',
  BEARER: 'bearer',
  API_KEY: 'api_key',
  HMAC: 'hmac',
};

/** Headers HTTP itself uses; a key in one of them would be consumed or rewritten on the way. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'keep-alive',
  'cookie',
  'proxy-authorization',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAuthType(value: unknown): value is InboundAuthType {
  return typeof value === 'string' && (INBOUND_AUTH_TYPES as readonly string[]).includes(value);
}

function messageOf(error: ErrorObject): string {
  const params = error.params as { pattern?: string; allowedValues?: unknown[]; limit?: number };
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'pattern':
      return PATTERN_MESSAGES[params.pattern ?? ''] ?? 'has an invalid format';
    case 'enum': {
      // the preset list is long (docs/inbound-auth.md has it): name the first few
      const values = params.allowedValues ?? [];
      return values.length > 20
        ? `must be one of ${values.slice(0, 8).join(', ')}, … (${values.length} values, listed in docs/inbound-auth.md)`
        : `must be one of ${values.join(', ')}`;
    }
    case 'maxItems':
      return `at most ${MAX_ACTIVE_SECRETS} entries (the current credential and the one being rotated)`;
    case 'minItems':
      return 'needs at least one entry';
    case 'uniqueItems':
      return 'entries must differ';
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : (error.message ?? 'is too short');
    default:
      return error.message ?? 'is invalid';
  }
}

const WHSEC = /^(?:whsec_)?([A-Za-z0-9+/]+={0,2})$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const ED25519_PUBLIC_KEY_HEX = /^[0-9a-fA-F]{64}$/;
const PEM_PUBLIC_KEY = /^-----BEGIN PUBLIC KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END PUBLIC KEY-----$/;
const HEADER_VALUE = new RegExp(HEADER_VALUE_PATTERN);

/** The message for a secret that does not have its preset's format; null when it does. */
function secretFormatError(format: SecretFormat, secret: string): string | null {
  switch (format) {
    case 'whsec': {
      const b64 = WHSEC.exec(secret)?.[1];
      return b64 === undefined || Buffer.from(b64, 'base64').length === 0
        ? 'must be a signing secret: "whsec_" followed by base64'
        : null;
    }
    case 'ed25519_public_key_hex':
      return ED25519_PUBLIC_KEY_HEX.test(secret) ? null : 'must be the application public key: 64 hex characters';
    case 'ed25519_public_key_base64':
      return BASE64.test(secret) && Buffer.from(secret, 'base64').length === 32
        ? null
        : 'must be the public key: 32 bytes in base64';
    case 'public_key_spki_base64':
    case 'base64':
      return BASE64.test(secret) ? null : 'must be base64, as the provider shows it';
    case 'hex':
      return HEX.test(secret) ? null : 'must be hex, as the provider shows it';
    case 'public_key_pem':
      return PEM_PUBLIC_KEY.test(secret) ? null : 'must be a PEM public key ("-----BEGIN PUBLIC KEY-----" …)';
    case 'sns_topic_arn':
      return SNS_TOPIC_ARN.test(secret) ? null : 'must be an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>)';
    case 'paypal_webhook_id':
      return PAYPAL_WEBHOOK_ID.test(secret) ? null : "must be the webhook's id: 1–50 letters and digits";
    case 'text':
      return null;
  }
}

/** AWS partitions that host SNS, a region, a 12-digit account, a topic name (FIFO topics end in .fifo). */
const SNS_TOPIC_ARN = /^arn:aws(?:-cn|-us-gov)?:sns:[a-z]{2}(?:-[a-z]+)+-\d:\d{12}:[A-Za-z0-9_-]{1,256}(?:\.fifo)?$/;
/** PayPal's verify-webhook-signature API describes webhook_id as ^[a-zA-Z0-9]+$, at most 50. */
const PAYPAL_WEBHOOK_ID = /^[A-Za-z0-9]{1,50}$/;

function checkPresetSecrets(setting: HmacInboundAuth, base: string): FieldError[] {
  if (setting.preset === 'custom') return [];
  const { spec } = HMAC_PRESET_INFO[setting.preset];
  return setting.secrets.flatMap((secret, i): FieldError[] => {
    const field = `${base}.secrets[${i}]`;
    const message = secretFormatError(spec.secret.format, secret);
    if (message !== null) return [{ field, message }];
    // A shared token travels in a header, so it must be a valid header value.
    if (spec.scheme.family === 'token' && !HEADER_VALUE.test(secret))
      return [{ field, message: PATTERN_MESSAGES[HEADER_VALUE_PATTERN] ?? 'is invalid' }];
    return [];
  });
}

function checkCustom(custom: CustomHmacConfig, base: string): FieldError[] {
  const errors: FieldError[] = [];
  const parsed = parseSignedContentTemplate(custom.template);
  if (!parsed.ok) return [{ field: `${base}.template`, message: parsed.message }];
  const used = templateVariables(parsed.parts);
  if (!used.has('body'))
    errors.push({ field: `${base}.template`, message: 'must include {{body}} so the payload is authenticated' });
  if (used.has('timestamp') && custom.timestamp_header === undefined)
    errors.push({ field: `${base}.timestamp_header`, message: 'is required when the template uses {{timestamp}}' });
  if (used.has('id') && custom.id_header === undefined)
    errors.push({ field: `${base}.id_header`, message: 'is required when the template uses {{id}}' });
  if (custom.timestamp_unit !== undefined && custom.timestamp_header === undefined)
    errors.push({ field: `${base}.timestamp_unit`, message: 'only applies with timestamp_header' });
  const sig = custom.header.toLowerCase();
  for (const key of ['timestamp_header', 'id_header'] as const) {
    if (custom[key]?.toLowerCase() === sig)
      errors.push({ field: `${base}.${key}`, message: 'must differ from the signature header' });
  }
  return errors;
}

function checkHmac(setting: HmacInboundAuth, base: string): FieldError[] {
  const errors = checkPresetSecrets(setting, base);
  if (setting.preset === 'custom') {
    if (!isRecord(setting.custom))
      return [...errors, { field: `${base}.custom`, message: 'is required when preset is custom' }];
    errors.push(...checkCustom(setting.custom, `${base}.custom`));
    if (
      setting.dedup?.enabled === true &&
      setting.custom.id_header === undefined &&
      setting.custom.id_json_path === undefined
    ) {
      errors.push({
        field: `${base}.dedup.enabled`,
        message: 'needs custom.id_header or custom.id_json_path to say where the delivery id is',
      });
    }
    if (setting.tolerance_seconds !== undefined && setting.custom.timestamp_header === undefined) {
      errors.push({
        field: `${base}.tolerance_seconds`,
        message: `only applies with custom.timestamp_header (default ${CUSTOM_DEFAULT_TOLERANCE_SECONDS} s when set)`,
      });
    }
    return errors;
  }
  const info = HMAC_PRESET_INFO[setting.preset];
  if ('custom' in setting) errors.push({ field: `${base}.custom`, message: 'is only allowed when preset is custom' });
  if (setting.tolerance_seconds !== undefined && !info.hasTimestamp) {
    errors.push({ field: `${base}.tolerance_seconds`, message: `the ${info.label} preset signs no timestamp` });
  }
  if (setting.dedup?.enabled === true && info.spec.id === undefined) {
    errors.push({ field: `${base}.dedup.enabled`, message: `${info.label} sends no delivery id to deduplicate on` });
  }
  if (setting.verify_token !== undefined && info.spec.handshake !== 'meta_hub_challenge') {
    errors.push({
      field: `${base}.verify_token`,
      message: `only applies to presets with Meta's subscription handshake, not ${info.label}`,
    });
  }
  return errors;
}

function checkApiKey(setting: ApiKeyInboundAuth, base: string): FieldError[] {
  return RESERVED_HEADERS.has(setting.header.toLowerCase())
    ? [{ field: `${base}.header`, message: 'is used by HTTP itself and cannot carry an API key' }]
    : [];
}

function checkSemantics(setting: InboundAuthSetting, base: string): FieldError[] {
  switch (setting.type) {
    case 'API_KEY':
      return checkApiKey(setting, base);
    case 'HMAC':
      return checkHmac(setting, base);
    default:
      return [];
  }
}

/** One message per field (an empty string also fails its pattern; "must not be empty" says enough). */
function firstPerField(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(e.field) && seen.add(e.field));
}

/**
 * Save-time validation of an endpoint's inbound auth setting; reports every problem at once.
 * Messages never echo a submitted value, so secrets do not leak into error responses.
 */
export function validateInboundAuth(input: unknown, fieldPrefix = 'inbound_auth'): Validation<InboundAuthSetting> {
  if (!isRecord(input)) return { ok: false, errors: [{ field: fieldPrefix, message: 'must be an object' }] };
  if (!isAuthType(input.type)) {
    return {
      ok: false,
      errors: [{ field: `${fieldPrefix}.type`, message: `must be one of ${INBOUND_AUTH_TYPES.join(', ')}` }],
    };
  }
  const base = `${fieldPrefix}.${TYPE_SEGMENT[input.type]}`;
  const validate = validatorFor(input.type);
  if (!validate(input))
    return {
      ok: false,
      errors: firstPerField((validate.errors ?? []).map((e) => ({ field: fieldOf(base, e), message: messageOf(e) }))),
    };
  const setting = structuredClone(input) as unknown as InboundAuthSetting;
  const errors = checkSemantics(setting, base);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: setting };
}
