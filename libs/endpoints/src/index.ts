// Endpoint settings model shared by the management API (save-time validation) and the
// ingest gateway (evaluation). One folder per setting family; this entry names every export.

// Inbound authentication (spec "Authentication / Inbound").
export { validateInboundAuth } from './auth/validate';
export { mapInboundAuthSecrets, redactInboundAuth } from './auth/secrets';
export { signatureHeaderNames } from './auth/headers';
export { CUSTOM_DEFAULT_TOLERANCE_SECONDS, HMAC_PRESET_INFO } from './auth/presets';
export type { HmacPresetInfo } from './auth/presets';
export { PRESET_SPECS } from './auth/presets/catalog';
export { presetTable } from './auth/presets/table';
export type {
  CertificateProvider,
  CertificateScheme,
  HmacScheme,
  MacEncoding,
  MacKeyForm,
  PresetDeliveryId,
  PresetScheme,
  PresetSpec,
  PublicKeyScheme,
  SecretFormat,
  SignatureFormat,
  SignedPart,
  TokenScheme,
  UrlFormScheme,
  HandshakeKind,
  MacHandshake,
} from './auth/presets/spec';
export { CERTIFICATE_PROVIDERS, MAC_HANDSHAKES, MAC_HANDSHAKES_PER_MINUTE } from './auth/presets/spec';
export { parseSignedContentTemplate } from './auth/template';
export {
  DEFAULT_DEDUP_WINDOW_SECONDS,
  HMAC_ALGORITHMS,
  HMAC_PRESETS,
  MAX_ACTIVE_SECRETS,
  MAX_DEDUP_WINDOW_SECONDS,
  SIGNATURE_ENCODINGS,
  TIMESTAMP_UNITS,
} from './auth/types';
export type {
  ApiKeyInboundAuth,
  BasicInboundAuth,
  BearerInboundAuth,
  CustomHmacConfig,
  HmacCustomInboundAuth,
  HmacInboundAuth,
  HmacPresetInboundAuth,
  CertificatePresetName,
  HmacPresetName,
  InboundAuthSetting,
  RedactedInboundAuth,
  RedactedSecret,
} from './auth/types';

// Payload formats (spec "Payload format rules").
export {
  ACCEPTED_MEDIA_TYPES,
  ENDPOINT_METHODS,
  MAX_QUERY_PARAM_PAIRS,
  PAYLOAD_FORMATS,
  isBodylessFormat,
  methodAllowedForFormat,
} from './payload/formats';
export type { BodyFormat, PayloadFormat } from './payload/formats';
export { FORMAT_FEATURES } from './payload/features';
export { MAX_QUERY_PARAM_NAME_LENGTH, validatePayloadSettings } from './payload/settings';

// Content rules: required headers, body filters, field validation.
export {
  BODY_FILTER_KINDS,
  MAX_BODY_FILTERS,
  MAX_FILTER_VALUE_LENGTH,
  PATTERN_FILTER_KINDS,
  TEXT_FILTER_KINDS,
  validateBodyFilters,
} from './rules/body-filters';
export type { BodyFilter } from './rules/body-filters';
export {
  FIELD_TYPES,
  MAX_FIELD_RULES,
  compileFieldRules,
  fieldPathProblem,
  validateFieldRules,
} from './rules/field-rules';
export type { FieldRule, FieldRuleValidator } from './rules/field-rules';
export {
  checkPattern,
  COMPILE_UNITS_PER_SIZE,
  compileCostBound,
  compilePattern,
  programSizeBound,
  UnusablePatternError,
} from './rules/regex';
export { compileTextPredicate } from './rules/predicates';
export type { TextPredicate } from './rules/predicates';

// Target routing rules (docs/routing.md): the body-filter model on one payload field.
export { MAX_ROUTE_VALUES, MAX_ROUTING_RULES, compileRouting, routingFormatProblem } from './rules/routing';
export type { RoutePredicate, Routing, RoutingRule } from './rules/routing';
// A target's ordering key (docs/ordering.md), read from a payload field or a request header.
export { compileOrderKey } from './rules/order-key';
export type { OrderKeyReader, OrderKeySource } from './rules/order-key';
export { MAX_REQUIRED_HEADERS, validateRequiredHeaders } from './rules/required-headers';
export type { RequiredHeader } from './rules/required-headers';

// Access: IP lists and captcha.
export { CAPTCHA_PROVIDERS, resolveCaptchaSettings, validateCaptchaSettings } from './access/captcha';
export type { CaptchaSettings, ResolvedCaptchaSettings } from './access/captcha';
export { MAX_IP_LIST_ENTRIES, parseIpRange, validateIpAccessLists } from './access/ip-lists';
export type { IpAccessLists, IpRange } from './access/ip-lists';

// Limits: rate limit and maintenance windows.
export { DEFAULT_RATE_LIMIT_PER_MINUTE, MAX_RATE_LIMIT_PER_MINUTE, validateRateLimit } from './limits/rate-limit';
export { MAX_MAINTENANCE_WINDOWS, pauseState, validateMaintenanceWindows } from './limits/maintenance';
export type { MaintenanceWindow } from './limits/maintenance';

// Payload contracts and the payload shapes drift is learned from (docs/contracts.md).
export {
  CONTRACT_LIMITS,
  CONTRACT_MODES,
  DEFAULT_CONTRACT,
  UnusableContractError,
  compileContracts,
  contractSummary,
  validateContractSchemas,
} from './rules/contracts';
export type {
  ContractCheck,
  ContractError,
  ContractMode,
  ContractResult,
  ContractSchema,
  PayloadContracts,
} from './rules/contracts';
export { SHAPE_LIMITS, diffShapes, shapeEntries, shapeOf, shapeRecord } from './rules/shape';
export type { Shape, ShapeDiff } from './rules/shape';
