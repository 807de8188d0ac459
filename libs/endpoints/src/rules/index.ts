export { BODY_FILTER_KINDS, MAX_BODY_FILTERS, MAX_FILTER_VALUE_LENGTH, PATTERN_FILTER_KINDS, TEXT_FILTER_KINDS, isPatternFilter, validateBodyFilters } from './body-filters';
export type { BodyFilter, BodyFilterKind, PatternFilterKind, TextFilterKind } from './body-filters';
export { FIELD_TYPES, MAX_FIELD_RULES, MAX_PATH_SEGMENTS, compileFieldRules, validateFieldRules } from './field-rules';
export type { FieldRule, FieldRuleValidator, FieldType, FieldViolation } from './field-rules';
export { MAX_PATTERN_LENGTH, MAX_PATTERN_PROGRAM_SIZE, checkPattern, compilePattern, re2RegExpEngine } from './regex';
export { MAX_REQUIRED_HEADERS, validateRequiredHeaders } from './required-headers';
export type { RequiredHeader } from './required-headers';
