import type { SendOutcome } from '../../kind';
import { classifyWebhookOutcome, retryAfterMs } from './classify';

const response = (status: number, headers: Record<string, string> = {}): SendOutcome => ({
  response: { status, headers, body: '' },
  durationMs: 1,
});
const failure = (code: string): SendOutcome => ({ error: { code, message: 'm' }, durationMs: 1 });

describe('webhook outcome classification', () => {
  it.each([200, 201, 204, 299])('HTTP %i is success', (s) =>
    expect(classifyWebhookOutcome(response(s)).result).toBe('success'),
  );

  it.each([301, 302, 307, 308])('HTTP %i is a redirect, never followed, permanent', (s) => {
    expect(classifyWebhookOutcome(response(s, { location: 'http://127.0.0.1/' }))).toMatchObject({
      result: 'permanent',
      error: `redirect (${s}) not followed`,
    });
  });

  it.each([408, 425, 429, 500, 502, 503])('HTTP %i retries', (s) =>
    expect(classifyWebhookOutcome(response(s)).result).toBe('retry'),
  );
  it.each([400, 401, 403, 404, 422])('HTTP %i is permanent', (s) =>
    expect(classifyWebhookOutcome(response(s))).toMatchObject({ result: 'permanent', flagTarget: false }),
  );
  it('HTTP 410 is permanent and flags the target', () =>
    expect(classifyWebhookOutcome(response(410))).toMatchObject({ result: 'permanent', flagTarget: true }));

  it('passes on Retry-After as seconds or an HTTP date', () => {
    expect(classifyWebhookOutcome(response(429, { 'retry-after': '7' }))).toMatchObject({
      result: 'retry',
      retryAfterMs: 7000,
    });
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(10000);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
  });

  it('SSRF_BLOCKED is permanent and flags the target', () => {
    expect(classifyWebhookOutcome(failure('SSRF_BLOCKED'))).toEqual({
      result: 'permanent',
      status: null,
      error: 'SSRF_BLOCKED: m',
      flagTarget: true,
    });
  });

  it.each([
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'ERR_TLS_CERT_ALTNAME_INVALID',
  ])('an untrusted certificate (%s) is permanent: retrying the same configuration cannot succeed', (code) =>
    expect(classifyWebhookOutcome(failure(code))).toMatchObject({ result: 'permanent', flagTarget: true }),
  );

  it.each(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID'])(
    'a time-bound certificate problem (%s) retries: a renewal fixes it',
    (code) => {
      expect(classifyWebhookOutcome(failure(code)).result).toBe('retry');
    },
  );

  it('a 2xx answer whose body ran past the response limit (RESPONSE_TOO_LARGE) is a permanent failure, not a delivery', () => {
    expect(classifyWebhookOutcome(failure('RESPONSE_TOO_LARGE'))).toEqual({
      result: 'permanent',
      status: null,
      error: 'RESPONSE_TOO_LARGE: m',
      flagTarget: false,
    });
  });

  it.each(['ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN'])(
    'a request Node refuses to send (%s) is permanent and flags the target: the same config cannot be sent later',
    (code) => {
      expect(classifyWebhookOutcome(failure(code))).toMatchObject({ result: 'permanent', flagTarget: true });
    },
  );

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN'])(
    'network failure %s retries',
    (code) => {
      expect(classifyWebhookOutcome(failure(code)).result).toBe('retry');
    },
  );
});
