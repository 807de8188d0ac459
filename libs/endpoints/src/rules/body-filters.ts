import { checkPattern } from './regex';
import { joinPath, schemaCheck } from './validation';
import { resultOf } from '@relay/contracts';
import type { FieldError, Validation } from '@relay/contracts';

/**
 * Spec "Endpoint / body filters": rules on the raw body; all rules must pass. Which text a
 * filter sees depends on the payload format (see the gateway's `bodyFilterSubject`).
 *
 * - `contains` / `not_contains`: the text contains / does not contain `value`.
 * - `equals`: the whole text equals `value`.
 * - `regex` / `not_regex`: the RE2 `pattern` matches / does not match somewhere in the text
 *   (anchor with `^…$` to match the whole text).
 * - `case_insensitive` applies to every kind (Unicode simple case folding, via RE2).
 */
export const TEXT_FILTER_KINDS = ['contains', 'not_contains', 'equals'] as const;
export const PATTERN_FILTER_KINDS = ['regex', 'not_regex'] as const;
export const BODY_FILTER_KINDS = [...TEXT_FILTER_KINDS, ...PATTERN_FILTER_KINDS] as const;

export type TextFilterKind = (typeof TEXT_FILTER_KINDS)[number];
export type PatternFilterKind = (typeof PATTERN_FILTER_KINDS)[number];
type BodyFilterKind = TextFilterKind | PatternFilterKind;

export type BodyFilter =
  | { kind: TextFilterKind; value: string; case_insensitive?: boolean }
  | { kind: PatternFilterKind; pattern: string; case_insensitive?: boolean };

export const MAX_BODY_FILTERS = 20;
export const MAX_FILTER_VALUE_LENGTH = 4096;

const check = schemaCheck({
  type: 'array',
  maxItems: MAX_BODY_FILTERS,
  items: {
    type: 'object',
    properties: {
      kind: { enum: [...BODY_FILTER_KINDS] },
      value: { type: 'string', minLength: 1, maxLength: MAX_FILTER_VALUE_LENGTH },
      pattern: { type: 'string' },
      case_insensitive: { type: 'boolean' },
    },
    required: ['kind'],
    additionalProperties: false,
  },
});

export function isPatternFilter(filter: BodyFilter): filter is Extract<BodyFilter, { pattern: string }> {
  return (PATTERN_FILTER_KINDS as readonly string[]).includes(filter.kind);
}

/** Save-time validation: a pattern RE2 cannot run (backreferences, lookaround) is refused here. */
export function validateBodyFilters(input: unknown, at = 'body_filters'): Validation<BodyFilter[]> {
  const errors = check(input, at);
  if (errors.length > 0) return { ok: false, errors };
  const filters = input as Array<{
    kind: BodyFilterKind;
    value?: string;
    pattern?: string;
    case_insensitive?: boolean;
  }>;
  filters.forEach((filter, i) => errors.push(...filterErrors(filter, joinPath(at, i))));
  return resultOf(errors, () => filters.map((f) => ({ ...f }) as BodyFilter));
}

function filterErrors(filter: { kind: BodyFilterKind; value?: string; pattern?: string }, field: string): FieldError[] {
  const wantsPattern = (PATTERN_FILTER_KINDS as readonly string[]).includes(filter.kind);
  const [needed, other] = wantsPattern ? (['pattern', 'value'] as const) : (['value', 'pattern'] as const);
  const errors: FieldError[] = [];
  if (filter[other] !== undefined)
    errors.push({ field: `${field}.${other}`, message: `is not used by a ${filter.kind} filter (use ${needed})` });
  const given = filter[needed];
  if (given === undefined) {
    errors.push({ field: `${field}.${needed}`, message: `is required for a ${filter.kind} filter` });
  } else if (wantsPattern) {
    const problem = checkPattern(given);
    if (problem !== null) errors.push({ field: `${field}.pattern`, message: problem });
  }
  return errors;
}
