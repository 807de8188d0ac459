import { schemaCheck } from '../rules/validation';
import type { Validation } from '@relay/contracts';

/**
 * Spec "Limits": per-endpoint rate limit in requests per minute, adjustable per endpoint; the
 * spec shows no default. 600/min (10/s sustained) fits a typical webhook source, and an
 * endpoint that needs more raises it.
 */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;
export const MAX_RATE_LIMIT_PER_MINUTE = 100_000;

const check = schemaCheck({ type: 'integer', minimum: 1, maximum: MAX_RATE_LIMIT_PER_MINUTE });

/** `undefined` (not set) resolves to the default. */
export function validateRateLimit(input: unknown, at = 'rate_limit_per_minute'): Validation<number> {
  if (input === undefined) return { ok: true, value: DEFAULT_RATE_LIMIT_PER_MINUTE };
  const errors = check(input, at);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: input as number };
}
