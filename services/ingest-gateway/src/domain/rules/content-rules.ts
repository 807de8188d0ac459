import { compileFieldRules } from '@relay/endpoints';
import type { BodyFilter, FieldRule, FieldRuleValidator, PayloadFormat, RequiredHeader } from '@relay/endpoints';
import { featuresFor } from '../payload/features';
import { bodyFilterSubject, bodyFilterSubjectLength, compileBodyFilters } from './body-filters';
import type { CompiledBodyFilters } from './body-filters';
import { PASS, rejection } from './rejection';
import type { Check } from './rejection';
import { checkRequiredHeaders } from './required-headers';
import type { RequestHeaders } from './required-headers';

/** The endpoint's content rules as stored (each validated at save time by @relay/endpoints). */
export interface ContentRules {
  required_headers?: readonly RequiredHeader[];
  body_filters?: readonly BodyFilter[];
  field_rules?: readonly FieldRule[];
}

export interface CompiledContentRules {
  requiredHeaders: readonly RequiredHeader[];
  bodyFilters: CompiledBodyFilters;
  fields: FieldRuleValidator;
}

/**
 * Compiles the ajv validator, and each pattern when first tested; cache the result per endpoint
 * revision ({@link RevisionCache}).
 */
export function compileContentRules(rules: ContentRules): CompiledContentRules {
  return {
    requiredHeaders: rules.required_headers ?? [],
    bodyFilters: compileBodyFilters(rules.body_filters ?? []),
    fields: compileFieldRules(rules.field_rules ?? []),
  };
}

/** Spec field validation: 400 FIELD_VALIDATION_FAILED naming every failing field. */
export function checkFields(fields: FieldRuleValidator, data: unknown): Check {
  return fieldsCheck(fields(data));
}

/** The answer to a payload's field rule violations, in rule order. */
export function fieldsCheck(violations: ReturnType<FieldRuleValidator>): Check {
  if (violations.length === 0) return PASS;
  return rejection(
    400,
    'FIELD_VALIDATION_FAILED',
    `Field validation failed: ${violations.map((v) => v.message).join('; ')}.`,
  );
}

export interface ContentRequest {
  format: PayloadFormat;
  headers: RequestHeaders;
  rawBody: Buffer;
  rawQuery: string;
  /** `payload.data` from readPayload */
  data: unknown;
}

/**
 * What the body filters and field rules may cost on this request (docs/security.md "Rule
 * cost"), found before any runs: each pattern's RE2 program size × the length of the text it
 * would test, the whole subject for a filter, the string at its path for a field rule, plus its
 * compile for a pattern not compiled yet.
 */
export function contentRulesCost(rules: CompiledContentRules, request: ContentRequest): number {
  const features = featuresFor(request.format, request.data);
  const length = features.bodyFilters ? bodyFilterSubjectLength(request.format, request) : null;
  const filters = length === null ? 0 : rules.bodyFilters.cost(length);
  return filters + (features.fieldValidation ? rules.fields.cost(request.data) : 0);
}

/** What the body filters and field rules read of a request, where its format enables them. */
export function patternSubjects(request: ContentRequest): { subject: string | null; fieldValidation: boolean } {
  const features = featuresFor(request.format, request.data);
  return {
    subject: features.bodyFilters ? bodyFilterSubject(request.format, request) : null,
    fieldValidation: features.fieldValidation,
  };
}

/** Spec "What the service does" step 5, first: required headers. */
export function checkHeaders(rules: CompiledContentRules, request: ContentRequest): Check {
  return checkRequiredHeaders(rules.requiredHeaders, request.headers);
}

/**
 * Spec "What the service does" step 5, in its order: required headers, body filters, field
 * validation rules. Filters and field validation run only where the payload format enables them.
 */
export function checkContentRules(rules: CompiledContentRules, request: ContentRequest): Check {
  const headers = checkHeaders(rules, request);
  if (!headers.ok) return headers;
  const { subject, fieldValidation } = patternSubjects(request);
  if (subject !== null) {
    const filtered = rules.bodyFilters(subject);
    if (!filtered.ok) return filtered;
  }
  return fieldValidation ? checkFields(rules.fields, request.data) : PASS;
}
