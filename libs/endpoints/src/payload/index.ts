export { ACCEPTED_MEDIA_TYPES, BODYLESS_FORMATS, MAX_QUERY_PARAM_PAIRS, PAYLOAD_FORMATS, isBodylessFormat, methodAllowedForFormat } from './formats';
export type { BodyFormat, BodylessFormat, PayloadFormat } from './formats';
export { MAX_QUERY_PARAM_NAME_LENGTH, queryParamNameErrors, validatePayloadSettings } from './settings';
export type { PayloadSettings, ResolvedPayloadSettings } from './settings';
