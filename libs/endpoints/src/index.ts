// Endpoint settings model shared by the management API (save-time validation) and the
// ingest gateway (evaluation). One folder per setting family; names re-exported explicitly.
export {
  CUSTOM_DEFAULT_TOLERANCE_SECONDS,
  HMAC_ALGORITHMS,
  HMAC_PRESETS,
  HMAC_PRESET_INFO,
  INBOUND_AUTH_TYPES,
  MAX_ACTIVE_SECRETS,
  SIGNATURE_ENCODINGS,
  TEMPLATE_VARIABLES,
  TIMESTAMP_UNITS,
  mapInboundAuthSecrets,
  parseSignedContentTemplate,
  redactInboundAuth,
  secretPaths,
  signatureHeaderNames,
  templateVariables,
  validateInboundAuth,
} from './auth';
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
  HmacPresetInfo,
  HmacPresetName,
  InboundAuthSetting,
  InboundAuthType,
  NoInboundAuth,
  RedactedInboundAuth,
  RedactedSecret,
  SecretPath,
  SignatureEncoding,
  TemplateParse,
  TemplatePart,
  TemplateVariable,
  TimestampUnit,
} from './auth';

// Payload formats, content rules, access and limits (libs/endpoints/src/{payload,rules,access,limits}).
export { ACCEPTED_MEDIA_TYPES, BODYLESS_FORMATS, isBodylessFormat, MAX_QUERY_PARAM_NAME_LENGTH, MAX_QUERY_PARAM_PAIRS, methodAllowedForFormat, PAYLOAD_FORMATS, queryParamNameErrors, validatePayloadSettings } from './payload';
export type { BodyFormat, BodylessFormat, PayloadFormat, PayloadSettings, ResolvedPayloadSettings } from './payload';
export { BODY_FILTER_KINDS, checkPattern, compileFieldRules, compilePattern, FIELD_TYPES, isPatternFilter, MAX_BODY_FILTERS, MAX_FIELD_RULES, MAX_FILTER_VALUE_LENGTH, MAX_PATH_SEGMENTS, MAX_PATTERN_LENGTH, MAX_PATTERN_PROGRAM_SIZE, MAX_REQUIRED_HEADERS, PATTERN_FILTER_KINDS, re2RegExpEngine, TEXT_FILTER_KINDS, validateBodyFilters, validateFieldRules, validateRequiredHeaders } from './rules';
export type { BodyFilter, BodyFilterKind, FieldRule, FieldRuleValidator, FieldType, FieldViolation, PatternFilterKind, RequiredHeader, TextFilterKind } from './rules';
export { CAPTCHA_DEFAULTS, CAPTCHA_PROVIDERS, MAX_IP_LIST_ENTRIES, parseIpRange, resolveCaptchaSettings, validateCaptchaSettings, validateIpAccessLists } from './access';
export type { CaptchaProvider, CaptchaSettings, IpAccessLists, IpRange, ResolvedCaptchaSettings } from './access';
export { DEFAULT_RATE_LIMIT_PER_MINUTE, ENDPOINT_UNAVAILABLE_RETRY_AFTER_SECONDS, isPaused, MAX_MAINTENANCE_WINDOWS, MAX_RATE_LIMIT_PER_MINUTE, parseIsoDateTime, pauseState, validateMaintenanceWindows, validateRateLimit } from './limits';
export type { MaintenanceWindow, PauseSettings, PauseState } from './limits';
