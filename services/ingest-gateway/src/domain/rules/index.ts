export { bodyFilterSubject, compileBodyFilters } from './body-filters';
export { checkContentRules, checkFields, compileContentRules } from './content-rules';
export type { CompiledContentRules, ContentRequest, ContentRules } from './content-rules';
export { PASS, rejection } from './rejection';
export type { Check, Rejection } from './rejection';
export { checkRequiredHeaders } from './required-headers';
export type { RequestHeaders } from './required-headers';
export { RevisionCache } from './revision-cache';
