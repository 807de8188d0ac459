import { compileFieldRules } from '@relay/endpoints';
import type { BodyFilter, FieldRule, FieldRuleValidator, PayloadFormat, RequiredHeader } from '@relay/endpoints';
import { featuresFor } from '../payload/features';
import { bodyFilterSubject, compileBodyFilters } from './body-filters';
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
  bodyFilters: (subject: string) => Check;
  fields: FieldRuleValidator;
}

/** Compiles regexes and the ajv validator; cache the result per endpoint revision ({@link RevisionCache}). */
export function compileContentRules(rules: ContentRules): CompiledContentRules {
  return {
    requiredHeaders: rules.required_headers ?? [],
    bodyFilters: compileBodyFilters(rules.body_filters ?? []),
    fields: compileFieldRules(rules.field_rules ?? []),
  };
}

/** Spec field validation: 400 FIELD_VALIDATION_FAILED naming every failing field. */
export function checkFields(fields: FieldRuleValidator, data: unknown): Check {
  const violations = fields(data);
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
 * Spec "What the service does" step 5, in its order: required headers, body filters, field
 * validation rules. Filters and field validation run only where the payload format enables them.
 */
export function checkContentRules(rules: CompiledContentRules, request: ContentRequest): Check {
  const headers = checkRequiredHeaders(rules.requiredHeaders, request.headers);
  if (!headers.ok) return headers;
  const features = featuresFor(request.format, request.data);
  const subject = features.bodyFilters ? bodyFilterSubject(request.format, request) : null;
  if (subject !== null) {
    const filtered = rules.bodyFilters(subject);
    if (!filtered.ok) return filtered;
  }
  return features.fieldValidation ? checkFields(rules.fields, request.data) : PASS;
}
