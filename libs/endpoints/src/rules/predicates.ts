import { RE2JS } from 're2js';
import { isPatternFilter } from './body-filters';
import type { BodyFilter, TextFilterKind } from './body-filters';
import { LazyPattern } from './regex';

/**
 * A body-filter test on one text, its pattern compiled when first tested. `cost(length)`: what
 * testing a text of that length may cost, compiling included until compiled (docs/security.md
 * "Rule cost"); 0 for a plain literal.
 */
export type TextPredicate = ((text: string) => boolean) & { cost: (length: number) => number };

/**
 * One body filter as a test on a text (spec "Endpoint / body filters"): what a body
 * filter does on the raw body, and what a target's routing rule of the same kind does on one
 * payload field (docs/routing.md). Patterns and case-insensitive literals run on RE2, so the
 * test is linear in the text whatever the pattern.
 */
export function compileTextPredicate(filter: BodyFilter): TextPredicate {
  const ci = filter.case_insensitive === true;
  if (isPatternFilter(filter)) {
    const re = new LazyPattern(filter.pattern, ci);
    const test = filter.kind === 'regex' ? (s: string) => re.test(s) : (s: string) => !re.test(s);
    return Object.assign(test, { cost: (length: number) => re.cost(length) });
  }
  const { value } = filter;
  // Case-insensitive literals go through RE2 too, for the same Unicode case folding as patterns.
  const literal = ci ? new LazyPattern(RE2JS.quote(value), true) : null;
  return Object.assign(literalTest(filter.kind, value, literal), {
    cost: (length: number) => literal?.cost(length) ?? 0,
  });
}

function literalTest(kind: TextFilterKind, value: string, literal: LazyPattern | null): (text: string) => boolean {
  switch (kind) {
    case 'contains':
      return literal ? (s) => literal.test(s) : (s) => s.includes(value);
    case 'not_contains':
      return literal ? (s) => !literal.test(s) : (s) => !s.includes(value);
    case 'equals':
      return literal ? (s) => literal.testExact(s) : (s) => s === value;
  }
}

/** The negated kinds: they pass where their positive kind fails, including on a field with no text. */
export function isNegatedFilterKind(kind: BodyFilter['kind']): boolean {
  return kind === 'not_contains' || kind === 'not_regex';
}
