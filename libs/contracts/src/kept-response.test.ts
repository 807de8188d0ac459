import { checkActivityRecord } from './codec';
import {
  MAX_KEPT_BODY_CHARS,
  MAX_KEPT_HEADER_VALUE,
  MAX_KEPT_HEADERS,
  keptResponse,
  redactHeaders,
} from './kept-response';
import { ACTIVITY_ATTEMPT_V1 } from './messages';
import type { ActivityAttemptV1 } from './messages';

/* What a row keeps of a target's answer — bounded whatever the target sends, no credential. */

const attempt = (response: ActivityAttemptV1['response']): ActivityAttemptV1 => ({
  type: ACTIVITY_ATTEMPT_V1,
  event_id: 'evt_1',
  delivery_id: 'dlv_1',
  account_id: 'acc_1',
  endpoint_id: 'ep_1',
  target_id: 'tg_1',
  target_kind: 'webhook',
  attempt: 1,
  attempted_at: '2030-01-01T00:00:00.000Z',
  state: 'failed',
  status_code: 400,
  duration_ms: 12.5,
  error: 'HTTP 400',
  next_attempt_at: null,
  ...(response ? { response } : {}),
});

describe('a target’s answer as the row keeps it', () => {
  it('keeps a small answer whole: headers by lower-case name, a repeated one joined, the body', () => {
    expect(
      keptResponse({
        headers: { 'Content-Type': 'application/json', via: ['a', 'b'], gone: undefined },
        body: '{"error":"no"}',
      }),
    ).toEqual({
      headers: { 'content-type': 'application/json', via: 'a, b' },
      headers_omitted: 0,
      body: '{"error":"no"}',
      body_truncated: false,
    });
  });

  it('redacts every credential header by its name, never its value', () => {
    const kept = keptResponse({
      headers: {
        'set-cookie': ['s=1'],
        authorization: 'Bearer x',
        'www-authenticate': 'Basic realm=x',
        'x-api-key': 'k',
        'x-session-id': 's',
        'x-request-id': 'r-1',
      },
      body: '',
    });
    expect(kept.headers).toEqual({
      'set-cookie': '[redacted]',
      authorization: '[redacted]',
      'www-authenticate': '[redacted]',
      'x-api-key': '[redacted]',
      'x-session-id': '[redacted]',
      'x-request-id': 'r-1',
    });
    expect(redactHeaders({ 'x-shop-token': 't', accept: '*/*' })).toEqual({
      'x-shop-token': '[redacted]',
      accept: '*/*',
    });
  });

  it('caps the count and size of headers and the body, and says what it left out', () => {
    const headers = Object.fromEntries(
      Array.from({ length: MAX_KEPT_HEADERS + 7 }, (_, i) => [`x-h${i}`, 'v'.repeat(10_000)]),
    );
    const kept = keptResponse({ headers, body: 'b'.repeat(4096) });
    expect(Object.keys(kept.headers)).toHaveLength(MAX_KEPT_HEADERS);
    expect(kept.headers_omitted).toBe(7);
    expect(Object.values(kept.headers).every((v) => v.length === MAX_KEPT_HEADER_VALUE && v.endsWith('…'))).toBe(true);
    expect(kept.body).toHaveLength(MAX_KEPT_BODY_CHARS);
    expect(kept.body_truncated).toBe(true);
    // the largest answer kept is a valid attempt record, and stays within a few KB
    expect(checkActivityRecord(attempt(kept))).toBeTruthy();
    expect(JSON.stringify(kept).length).toBeLessThan(7 * 1024);
  });

  it('is optional on the attempt record, and a record past the caps is refused', () => {
    expect(checkActivityRecord(attempt(undefined))).toBeTruthy();
    expect(() =>
      checkActivityRecord(
        attempt({ headers: {}, headers_omitted: 0, body: 'b'.repeat(MAX_KEPT_BODY_CHARS + 1), body_truncated: true }),
      ),
    ).toThrow();
  });
});
