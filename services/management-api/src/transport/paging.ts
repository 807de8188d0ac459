import type { FieldError } from '@relay/contracts';

/**
 * A list's `?limit=`: absent gives `page.default`; anything but one integer from 1 to `page.max`
 * (a repeated parameter, an empty one) adds a field error and gives the default.
 */
export function limitOf(value: unknown, page: { default: number; max: number }, errors: FieldError[]): number {
  if (value === undefined) return page.default;
  const limit = Number(value);
  if (typeof value === 'string' && Number.isInteger(limit) && limit >= 1 && limit <= page.max) return limit;
  errors.push({ field: 'limit', message: `must be an integer from 1 to ${page.max}` });
  return page.default;
}
