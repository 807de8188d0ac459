// Endpoint settings model shared by the management API (save-time validation) and the
// ingest gateway (evaluation). One folder per setting family; this entry names every export.

// Inbound authentication (spec "Authentication / Inbound").
export { validateInboundAuth } from './auth/validate';
export { mapInboundAuthSecrets, redactInboundAuth, secretPaths } from './auth/secrets';
export type { SecretPath } from './auth/secrets';
export { signatureHeaderNames } from './auth/headers';
export { CUSTOM_DEFAULT_TOLERANCE_SECONDS, HMAC_PRESET_INFO } from './auth/presets';
export type { HmacPresetInfo } from './auth/presets';
export { PRESET_NAMES, PRESET_SPECS } from './auth/presets/catalog';
export { presetTable } from './auth/presets/table';
export type {
  HmacScheme,
  MacAlgorithm,
  MacEncoding,
  MacKeyForm,
  PresetDeliveryId,
  PresetScheme,
  PresetSpec,
  PresetTimestamp,
  PublicKeyScheme,
  SecretFormat,
  SignatureFormat,
  SignedPart,
  TokenScheme,
  UrlFormScheme,
  HandshakeKind,
} from './auth/presets/spec';
export { HANDSHAKE_KINDS } from './auth/presets/spec';
export { parseSignedContentTemplate, templateVariables, TEMPLATE_VARIABLES } from './auth/template';
export type { TemplateParse, TemplatePart, TemplateVariable } from './auth/template';
export {
  DEFAULT_DEDUP_WINDOW_SECONDS,
  HMAC_ALGORITHMS,
  HMAC_PRESETS,
  INBOUND_AUTH_TYPES,
  MAX_ACTIVE_SECRETS,
  MAX_DEDUP_WINDOW_SECONDS,
  SIGNATURE_ENCODINGS,
  TIMESTAMP_UNITS,
} from './auth/types';
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
  DeliveryIdDedup,
  HmacPresetName,
  InboundAuthSetting,
  InboundAuthType,
  NoInboundAuth,
  RedactedInboundAuth,
  RedactedSecret,
  SignatureEncoding,
  TimestampUnit,
} from './auth/types';

// Payload formats (spec "Payload format rules").
export {
  ACCEPTED_MEDIA_TYPES,
  BODYLESS_FORMATS,
  ENDPOINT_METHODS,
  MAX_QUERY_PARAM_PAIRS,
  PAYLOAD_FORMATS,
  isBodylessFormat,
  methodAllowedForFormat,
} from './payload/formats';
export type { BodyFormat, BodylessFormat, PayloadFormat } from './payload/formats';
export { FORMAT_FEATURES } from './payload/features';
export type { FormatFeatures } from './payload/features';
export { MAX_QUERY_PARAM_NAME_LENGTH, queryParamNameErrors, validatePayloadSettings } from './payload/settings';
export type { PayloadSettings, ResolvedPayloadSettings } from './payload/settings';

// Content rules: required headers, body filters, field validation.
export {
  BODY_FILTER_KINDS,
  MAX_BODY_FILTERS,
  MAX_FILTER_VALUE_LENGTH,
  PATTERN_FILTER_KINDS,
  TEXT_FILTER_KINDS,
  isPatternFilter,
  validateBodyFilters,
} from './rules/body-filters';
export type { BodyFilter, BodyFilterKind, PatternFilterKind, TextFilterKind } from './rules/body-filters';
export {
  FIELD_TYPES,
  MAX_FIELD_RULES,
  MAX_PATH_SEGMENTS,
  compileFieldRules,
  fieldPathProblem,
  validateFieldRules,
} from './rules/field-rules';
export type { FieldRule, FieldRuleValidator, FieldType, FieldViolation } from './rules/field-rules';
export {
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_PROGRAM_SIZE,
  checkPattern,
  compilePattern,
  re2RegExpEngine,
} from './rules/regex';
export { compileTextPredicate, isNegatedFilterKind } from './rules/predicates';
export type { TextPredicate } from './rules/predicates';

// Target routing rules (docs/routing.md): the body-filter model on one payload field.
export {
  MAX_ROUTE_VALUES,
  MAX_ROUTING_RULES,
  NUMERIC_ROUTE_KINDS,
  PRESENCE_ROUTE_KINDS,
  ROUTE_KINDS,
  ROUTING_MATCH,
  compileRouting,
  routingFormatProblem,
} from './rules/routing';
export type { NumericRouteKind, RouteKind, RoutePredicate, Routing, RoutingRule } from './rules/routing';
export { MAX_REQUIRED_HEADERS, validateRequiredHeaders } from './rules/required-headers';
export type { RequiredHeader } from './rules/required-headers';

// Access: IP lists and captcha.
export { CAPTCHA_DEFAULTS, CAPTCHA_PROVIDERS, resolveCaptchaSettings, validateCaptchaSettings } from './access/captcha';
export type { CaptchaProvider, CaptchaSettings, ResolvedCaptchaSettings } from './access/captcha';
export { MAX_IP_LIST_ENTRIES, parseIpRange, validateIpAccessLists } from './access/ip-lists';
export type { IpAccessLists, IpRange } from './access/ip-lists';

// Limits: rate limit and maintenance windows.
export { DEFAULT_RATE_LIMIT_PER_MINUTE, MAX_RATE_LIMIT_PER_MINUTE, validateRateLimit } from './limits/rate-limit';
export {
  ENDPOINT_UNAVAILABLE_RETRY_AFTER_SECONDS,
  MAX_MAINTENANCE_WINDOWS,
  isPaused,
  parseIsoDateTime,
  pauseState,
  validateMaintenanceWindows,
} from './limits/maintenance';
export type { MaintenanceWindow, PauseSettings, PauseState } from './limits/maintenance';
