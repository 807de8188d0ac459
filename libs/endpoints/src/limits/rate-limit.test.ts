import { DEFAULT_RATE_LIMIT_PER_MINUTE, validateRateLimit } from './rate-limit';

describe('per-endpoint rate limit (requests per minute)', () => {
  it(`defaults to ${DEFAULT_RATE_LIMIT_PER_MINUTE} when not set`, () => {
    expect(validateRateLimit(undefined)).toEqual({ ok: true, value: 600 });
  });

  it.each([1, 60, 100_000])('accepts %s', (n) => {
    expect(validateRateLimit(n)).toEqual({ ok: true, value: n });
  });

  it.each([0, -1, 1.5, '60', null, 100_001])('rejects %p', (n) => {
    const result = validateRateLimit(n);
    expect(!result.ok && result.errors[0]?.field).toBe('rate_limit_per_minute');
  });
});
