// Public surface of the inbound-auth settings model; re-exported by name from the lib entry.
export { validateInboundAuth } from './validate';
export { mapInboundAuthSecrets, redactInboundAuth, secretPaths } from './secrets';
export type { SecretPath } from './secrets';
export { signatureHeaderNames } from './headers';
export { CUSTOM_DEFAULT_TOLERANCE_SECONDS, HMAC_PRESET_INFO } from './presets';
export type { HmacPresetInfo } from './presets';
export { parseSignedContentTemplate, templateVariables, TEMPLATE_VARIABLES } from './template';
export type { TemplateParse, TemplatePart, TemplateVariable } from './template';
export { HMAC_ALGORITHMS, HMAC_PRESETS, INBOUND_AUTH_TYPES, MAX_ACTIVE_SECRETS, SIGNATURE_ENCODINGS, TIMESTAMP_UNITS } from './types';
export type {
  ApiKeyInboundAuth,
  BasicCredential,
  BasicInboundAuth,
  BearerInboundAuth,
  CustomHmacConfig,
  HmacAlgorithm,
  HmacCustomInboundAuth,
  HmacInboundAuth,
  HmacPresetInboundAuth,
  HmacPresetName,
  InboundAuthSetting,
  InboundAuthType,
  NoInboundAuth,
  RedactedInboundAuth,
  RedactedSecret,
  SignatureEncoding,
  TimestampUnit,
} from './types';
