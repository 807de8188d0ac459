import { compileTextPredicate, FORMAT_FEATURES } from '@relay/endpoints';
import type { BodyFilter, PayloadFormat } from '@relay/endpoints';
import { PASS, rejection } from './rejection';
import type { Check } from './rejection';

/**
 * The text body filters see (spec "Endpoint / body filters"), per the format's feature row: the
 * raw body decoded as UTF-8 for JSON, XML and text; the raw (still percent-encoded) form body for
 * form; the raw query string for the query formats. `null` for None: its body is ignored and its
 * payload is empty, so filters do not run (like field validation and captcha).
 */
export function bodyFilterSubject(
  format: PayloadFormat,
  request: { rawBody: Buffer; rawQuery: string },
): string | null {
  const source = subjectSource(format, request);
  return typeof source === 'string' || source === null ? source : source.toString('utf8');
}

/**
 * The subject's length in UTF-16 units at most, without decoding it (UTF-8 never decodes to more
 * units than it has bytes), for the rule-cost estimate; `null` where filters do not run.
 */
export function bodyFilterSubjectLength(
  format: PayloadFormat,
  request: { rawBody: Buffer; rawQuery: string },
): number | null {
  return subjectSource(format, request)?.length ?? null;
}

function subjectSource(format: PayloadFormat, request: { rawBody: Buffer; rawQuery: string }): Buffer | string | null {
  switch (FORMAT_FEATURES[format].bodyFilters) {
    case 'none':
      return null;
    case 'raw_query':
      return request.rawQuery;
    case 'raw_body':
      return request.rawBody;
  }
}

/**
 * Validated filters, kept once per endpoint revision, each pattern compiled when first tested.
 * `cost(length)`: what they may cost together on a subject of that length (each runs on all of
 * it), compiling included for a pattern not compiled yet.
 */
export type CompiledBodyFilters = ((subject: string) => Check) & { cost: (length: number) => number };

/**
 * All filters must pass; the first failing one gives 400 REQUEST_BODY_FILTER_FAILED
 * ({@link bodyFilterFailed}).
 */
export function compileBodyFilters(filters: readonly BodyFilter[]): CompiledBodyFilters {
  const predicates = filters.map((filter) => ({ kind: filter.kind, test: compileTextPredicate(filter) }));
  const check = (subject: string): Check => {
    const failed = predicates.findIndex((p) => !p.test(subject));
    return failed === -1 ? PASS : bodyFilterFailed(failed, predicates[failed]!.kind);
  };
  return Object.assign(check, {
    cost: (length: number) => predicates.reduce((sum, p) => sum + p.test.cost(length), 0),
  });
}

/** Filter `index` (from 0) failed. The message numbers the filter and never echoes its value or pattern. */
export function bodyFilterFailed(index: number, kind: BodyFilter['kind']): Check {
  return rejection(400, 'REQUEST_BODY_FILTER_FAILED', `The request did not pass body filter ${index + 1} (${kind}).`);
}
