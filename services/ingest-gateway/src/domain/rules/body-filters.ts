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
  switch (FORMAT_FEATURES[format].bodyFilters) {
    case 'none':
      return null;
    case 'raw_query':
      return request.rawQuery;
    case 'raw_body':
      return request.rawBody.toString('utf8');
  }
}

/**
 * Compiles validated filters once (per endpoint revision). All filters must pass; the first
 * failing one gives 400 REQUEST_BODY_FILTER_FAILED. The message numbers the filter and never
 * echoes its value or pattern.
 */
export function compileBodyFilters(filters: readonly BodyFilter[]): (subject: string) => Check {
  const predicates = filters.map((filter) => ({ kind: filter.kind, test: compileTextPredicate(filter) }));
  return (subject) => {
    const failed = predicates.findIndex((p) => !p.test(subject));
    if (failed === -1) return PASS;
    return rejection(
      400,
      'REQUEST_BODY_FILTER_FAILED',
      `The request did not pass body filter ${failed + 1} (${predicates[failed]!.kind}).`,
    );
  };
}
