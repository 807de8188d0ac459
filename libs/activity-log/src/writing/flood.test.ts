import { ACTIVITY_REQUEST_V1 } from '@relay/contracts';
import type { ActivityRequestV1 } from '@relay/contracts';
import { FloodFolder } from './flood';

const reject = (over: Partial<ActivityRequestV1> = {}): ActivityRequestV1 => ({
  type: ACTIVITY_REQUEST_V1,
  event_id: 'evt',
  account_id: 'a',
  endpoint_id: 'e',
  received_at: '2026-11-23T05:00:10.000Z',
  method: 'POST',
  source_ip: '1.2.3.4',
  outcome: 'AUTH_FAILED',
  reason: 'invalid token',
  target_count: 0,
  test: false,
  ...over,
});

describe('aggregated rows: floods of identical rejections (spec: source IP shown for rows that are not aggregated)', () => {
  it('keeps the first N of a kind per minute as rows and folds the rest into one aggregated row', () => {
    const f = new FloodFolder(3);
    const folds = Array.from({ length: 10 }, () => f.fold(reject()));
    expect(folds.slice(0, 3)).toEqual([null, null, null]);
    const ids = new Set(folds.slice(3).map((x) => x!.digest));
    expect(ids.size).toBe(1);
    expect(folds.slice(3).map((x) => x!.first)).toEqual([true, false, false, false, false, false, false]);
  });

  it('a quarantined request keeps its row (a re-run starts from it); one past the bound folds as any refusal', () => {
    const f = new FloodFolder(1);
    const filtered = { outcome: 'REQUEST_BODY_FILTER_FAILED' as const, reason: 'body filter 1 failed' };
    expect(Array.from({ length: 5 }, () => f.fold(reject({ ...filtered, quarantine: 'kept' })))).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    f.fold(reject({ ...filtered, quarantine: 'bound_reached' }));
    expect(f.fold(reject({ ...filtered, quarantine: 'bound_reached' }))).not.toBeNull();
  });

  it('a kind is the endpoint, outcome and reason in one UTC minute', () => {
    const f = new FloodFolder(1);
    f.fold(reject());
    const base = f.fold(reject())!.digest;
    expect(f.fold(reject({ endpoint_id: 'other' }))).toBeNull();
    expect(f.fold(reject({ reason: 'missing token' }))).toBeNull();
    expect(f.fold(reject({ outcome: 'IP_BLOCKED' }))).toBeNull();
    expect(f.fold(reject({ received_at: '2026-11-23T05:00:59.999Z' }))!.digest).toBe(base);
    expect(f.fold(reject({ received_at: '2026-11-23T05:01:00.000Z' }))).toBeNull(); // a new minute starts over
  });

  it('never folds accepted requests', () => {
    const f = new FloodFolder(0 + 1);
    for (let i = 0; i < 5; i++)
      expect(f.fold(reject({ outcome: 'ACCEPTED', reason: null, target_count: 1 }))).toBeNull();
  });

  it('remembers two minutes only: a straggler from an older minute keeps its own row', () => {
    const f = new FloodFolder(1);
    f.fold(reject({ received_at: '2026-11-23T05:05:00.000Z' }));
    expect(f.fold(reject({ received_at: '2026-11-23T05:01:00.000Z' }))).toBeNull();
    expect(f.fold(reject({ received_at: '2026-11-23T05:01:00.000Z' }))).toBeNull();
  });

  it("never folds a test request's rejection: it keeps its row in the Test group", () => {
    const f = new FloodFolder(1);
    f.fold(reject());
    expect(Array.from({ length: 5 }, () => f.fold(reject({ test: true })))).toEqual([null, null, null, null, null]);
  });

  it('never folds delivery_queue_unavailable: a 503 may be delivered anyway, and its attempts need the row', () => {
    const f = new FloodFolder(1);
    const dqu = {
      outcome: 'DELIVERY_QUEUE_UNAVAILABLE',
      reason: 'delivery queue unavailable',
      target_count: 1,
    } as const;
    expect(Array.from({ length: 5 }, () => f.fold(reject(dqu)))).toEqual([null, null, null, null, null]);
  });
});
