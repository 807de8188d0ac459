import { RE2JS } from 're2js';
import { compilePattern, FORMAT_FEATURES, isPatternFilter } from '@relay/endpoints';
import type { BodyFilter, PayloadFormat } from '@relay/endpoints';
import { PASS, rejection } from './rejection';
import type { Check } from './rejection';

/**
 * The text body filters see (spec "Endpoint / body filters"), per the format's feature row: the
 * raw body decoded as UTF-8 for JSON, XML and text; the raw (still percent-encoded) form body for
 * form; the raw query string for the query formats. `null` for None: its body is ignored and its
 * payload is empty, so filters do not run (like field validation and captcha).
 */
export function bodyFilterSubject(format: PayloadFormat, request: { rawBody: Buffer; rawQuery: string }): string | null {
  switch (FORMAT_FEATURES[format].bodyFilters) {
    case 'none':
      return null;
    case 'raw_query':
      return request.rawQuery;
    case 'raw_body':
      return request.rawBody.toString('utf8');
  }
}

type Predicate = (subject: string) => boolean;

function predicateOf(filter: BodyFilter): Predicate {
  const ci = filter.case_insensitive === true;
  if (isPatternFilter(filter)) {
    const re = compilePattern(filter.pattern, ci);
    return filter.kind === 'regex' ? (s) => re.test(s) : (s) => !re.test(s);
  }
  const { value } = filter;
  // Case-insensitive literals go through RE2 too, for the same Unicode case folding as patterns.
  const literal = ci ? RE2JS.compile(RE2JS.quote(value), RE2JS.CASE_INSENSITIVE) : null;
  switch (filter.kind) {
    case 'contains':
      return literal ? (s) => literal.test(s) : (s) => s.includes(value);
    case 'not_contains':
      return literal ? (s) => !literal.test(s) : (s) => !s.includes(value);
    case 'equals':
      return literal ? (s) => literal.testExact(s) : (s) => s === value;
  }
}

/**
 * Compiles validated filters once (per endpoint revision). All filters must pass; the first
 * failing one gives 400 REQUEST_BODY_FILTER_FAILED. The message numbers the filter and never
 * echoes its value or pattern.
 */
export function compileBodyFilters(filters: readonly BodyFilter[]): (subject: string) => Check {
  const predicates = filters.map((filter) => ({ kind: filter.kind, test: predicateOf(filter) }));
  return (subject) => {
    const failed = predicates.findIndex((p) => !p.test(subject));
    if (failed === -1) return PASS;
    return rejection(400, 'REQUEST_BODY_FILTER_FAILED', `The request did not pass body filter ${failed + 1} (${predicates[failed]!.kind}).`);
  };
}
