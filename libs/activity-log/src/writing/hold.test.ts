import { ACTIVITY_ATTEMPT_V1, ACTIVITY_REQUEST_V1, resendDeliveryId, resendTag } from '@relay/contracts';
import type { ActivityAttemptV1, ActivityRequestV1 } from '@relay/contracts';
import { Holding } from './hold';

const req = (id: string, targets: number, outcome: ActivityRequestV1['outcome'] = 'ACCEPTED'): ActivityRequestV1 => ({
  type: ACTIVITY_REQUEST_V1,
  event_id: id,
  account_id: 'a',
  endpoint_id: 'e',
  received_at: '2026-11-23T05:00:00.000Z',
  method: 'POST',
  source_ip: '1.2.3.4',
  outcome,
  reason: null,
  target_count: targets,
  test: false,
});
const att = (id: string, target: string, attempt = 1): ActivityAttemptV1 => ({
  type: ACTIVITY_ATTEMPT_V1,
  event_id: id,
  delivery_id: `d_${id}_${target}`,
  account_id: 'a',
  endpoint_id: 'e',
  target_id: target,
  target_kind: 'webhook',
  attempt,
  attempted_at: '2026-11-23T05:00:01.000Z',
  state: 'delivered',
  status_code: 200,
  duration_ms: 1,
  error: null,
  next_attempt_at: null,
});

describe('holding a request row for its first attempts ("fewer writes per event")', () => {
  it('releases the row with every delivery merged once each target reported an attempt', () => {
    const h = new Holding<number>(1000, 10);
    expect(h.add(req('e1', 2), 1, 0)).toEqual([]);
    expect(h.add(att('e1', 't1'), 2, 5)).toEqual([]);
    const [group] = h.add(att('e1', 't2'), 3, 6);
    expect(group).toMatchObject({ event_id: 'e1', tokens: [1, 2, 3] });
    expect(group!.attempts).toHaveLength(2);
    expect(h.size).toBe(0);
  });

  it('releases a row after the hold window even when attempts are missing', () => {
    const h = new Holding<number>(1000, 10);
    h.add(req('e1', 1), 1, 0);
    expect(h.release(999)).toEqual([]);
    expect(h.release(1000).map((g) => g.event_id)).toEqual(['e1']);
  });

  it('never holds rejections, requests without targets or retries (attempt > 1)', () => {
    const h = new Holding<number>(1000, 10);
    expect(h.add(req('r', 0, 'AUTH_FAILED'), 1, 0)).toHaveLength(1);
    expect(h.add(req('z', 0), 2, 0)).toHaveLength(1);
    expect(h.add(att('x', 't1', 2), 3, 0)).toHaveLength(1);
    expect(h.size).toBe(0);
  });

  it('holds a first attempt that overtook its request row, and releases both together when the row comes', () => {
    const h = new Holding<number>(1000, 10);
    expect(h.add(att('e1', 't1'), 1, 0)).toEqual([]);
    const [group] = h.add(req('e1', 1), 2, 5);
    expect(group).toMatchObject({ event_id: 'e1', request: { event_id: 'e1' }, tokens: [1, 2] });
    expect(group!.attempts).toHaveLength(1);
    expect(h.size).toBe(0);
  });

  it('a first attempt whose row never comes is released after the hold window, alone', () => {
    const h = new Holding<number>(1000, 10);
    h.add(att('e1', 't1'), 1, 0);
    expect(h.release(1000)).toEqual([expect.objectContaining({ event_id: 'e1', request: null })]);
  });

  it('holds at most maxHeld rows: the oldest is released first', () => {
    const h = new Holding<number>(60_000, 2);
    h.add(req('a', 1), 1, 0);
    h.add(req('b', 1), 2, 1);
    expect(h.add(req('c', 1), 3, 2).map((g) => g.event_id)).toEqual(['a']);
    expect(h.size).toBe(2);
    expect(h.oldest()).toBe(Date.parse('2026-11-23T05:00:00.000Z'));
  });

  it("never holds a resend's first attempt: its row was written long before, nothing will join it", () => {
    const h = new Holding<number>(1000, 10);
    const resent = {
      ...att('evt_01m83e0000aaaaaaaaaaaaaaaa', 't1'),
      delivery_id: resendDeliveryId('evt_01m83e0000aaaaaaaaaaaaaaaa', 'tg_t1', resendTag(0)),
    };
    expect(h.add(resent, 1, 0).map((g) => g.tokens)).toEqual([[1]]);
    expect(h.size).toBe(0);
  });
});
