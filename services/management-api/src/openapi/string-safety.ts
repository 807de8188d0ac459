import type { FieldError } from '@relay/contracts';

/*
 * Strings a request may carry. The store (FerretDB over PostgreSQL) refuses
 * U+0000 in any text, and an HTTP header cannot carry it either; a UTF-16 surrogate without its
 * pair has no UTF-8 form at all, so it would be stored or sent as something else than what was
 * asked. Both are refused up front, with a 400 naming the field, instead of a 500 from the store
 * or a silently changed value. The check reads the request itself, not the schema, so no string
 * of any route escapes it — path and query parameters, every body value and every body key.
 */

export const UNCARRIABLE_MESSAGE = 'must not contain U+0000 (NUL) or an unpaired UTF-16 surrogate';
export const UNCARRIABLE_KEY_MESSAGE = 'has a field name containing U+0000 (NUL) or an unpaired UTF-16 surrogate';

// a high surrogate not followed by a low one, or a low surrogate not preceded by a high one
const UNCARRIABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const carriable = (s: string): boolean => !UNCARRIABLE.test(s);

export const isUncarriableError = (e: FieldError): boolean =>
  e.message === UNCARRIABLE_MESSAGE || e.message === UNCARRIABLE_KEY_MESSAGE;

/** `a` + `b` → `a.b`; `a` + 0 → `a[0]`; the body itself is `(body)` (as request-validator.ts names fields). */
const child = (at: string, key: string | number): string =>
  typeof key === 'number' ? `${at}[${key}]` : at === '' ? key : `${at}.${key}`;

/**
 * Every field of `value` (named from `base`) holding a string that cannot be carried. Walked
 * with an explicit stack, not recursion: a 256 KB body of nested arrays must not overflow it.
 */
export function uncarriableFields(value: unknown, base: string): FieldError[] {
  const found: FieldError[] = [];
  const stack: Array<[unknown, string]> = [[value, base]];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (!carriable(v)) found.push({ field: at === '' ? '(body)' : at, message: UNCARRIABLE_MESSAGE });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, child(at, i)]));
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, item] of Object.entries(v)) {
        if (!carriable(k)) found.push({ field: at === '' ? '(body)' : at, message: UNCARRIABLE_KEY_MESSAGE });
        else stack.push([item, child(at, k)]);
      }
    }
  }
  // the stack reads the last field first: report in the order of the request
  return found.reverse();
}
