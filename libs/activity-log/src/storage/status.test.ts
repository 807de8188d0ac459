import { deliveryIdFor, resendDeliveryId, resendTag } from '@relay/contracts';
import { decodeChanges, decodeEntries, encodeChanges, encodeEntries } from './entries';
import type { IndexEntry } from './entries';
import { nextAttemptMs, statusOf } from './status';

const EVT = 'evt_01m83e0000aaaaaaaaaaaaaaaa';
const ORIGINAL = deliveryIdFor(EVT, 'tg_a');
const RESENT = resendDeliveryId(EVT, 'tg_a', resendTag(Date.parse('2026-11-24T00:00:00Z')));

/** an index entry of a row waiting for its retry */
const PENDING_ENTRY: IndexEntry = {
  event_id: EVT,
  received_ms: 1,
  endpoint_id: 'ep_1',
  method: 'POST',
  source_ip: null,
  outcome: 'ACCEPTED',
  reason: null,
  status: 'pending',
  last_error: 'HTTP 500',
  target_count: 1,
  test: false,
  aggregated: false,
  alert: false,
  retry_ms: 123,
};

const delivered = { attempts: { '1': { attempt: 1, state: 'delivered' as const } } };
const retrying = { attempts: { '1': { attempt: 1, state: 'retrying' as const } } };
const failedThenDelivered = {
  attempts: { '1': { attempt: 1, state: 'retrying' as const }, '2': { attempt: 2, state: 'delivered' as const } },
};
const failed = {
  attempts: { '1': { attempt: 1, state: 'retrying' as const }, '2': { attempt: 2, state: 'failed' as const } },
};

describe('activity status groups (Completed / Pending / Errors)', () => {
  it.each([
    ['a rejected request is in Errors', { outcome: 'AUTH_FAILED', target_count: 0 }, 'errors'],
    [
      "a provider's handshake answered at ingest is Completed: nothing to deliver, nothing to fix",
      { outcome: 'HANDSHAKE_ANSWERED', target_count: 0 },
      'completed',
    ],
    [
      "a provider's retry of an accepted delivery id is Completed: answered as a replay, not an error",
      { outcome: 'DUPLICATE', target_count: 0 },
      'completed',
    ],
    ['an accepted request without targets is Completed', { outcome: 'ACCEPTED', target_count: 0 }, 'completed'],
    [
      'a delivery its transformation dropped counts as done: Completed',
      {
        outcome: 'ACCEPTED',
        target_count: 2,
        deliveries: { a: delivered, b: { attempts: { '1': { attempt: 1, state: 'dropped' as const } } } },
      },
      'completed',
    ],
    [
      'a delivery whose transformation failed is in Errors',
      {
        outcome: 'ACCEPTED',
        target_count: 2,
        deliveries: { a: delivered, b: { attempts: { '1': { attempt: 1, state: 'transform_failed' as const } } } },
      },
      'errors',
    ],
    [
      'an accepted request whose targets all delivered is Completed',
      { outcome: 'ACCEPTED', target_count: 2, deliveries: { a: delivered, b: failedThenDelivered } },
      'completed',
    ],
    [
      'an accepted request with a delivery not yet reported is Pending',
      { outcome: 'ACCEPTED', target_count: 2, deliveries: { a: delivered } },
      'pending',
    ],
    [
      'an accepted request with a delivery still retrying is Pending',
      { outcome: 'ACCEPTED', target_count: 1, deliveries: { a: retrying } },
      'pending',
    ],
    [
      'an accepted request with a delivery that failed for good is in Errors',
      { outcome: 'ACCEPTED', target_count: 2, deliveries: { a: delivered, b: failed } },
      'errors',
    ],
    ['attempts that arrive before their request row are Pending', { deliveries: { a: delivered } }, 'pending'],
    [
      'a failed delivery replaced by a resend that delivered is Completed',
      {
        outcome: 'ACCEPTED',
        target_count: 1,
        deliveries: {
          [ORIGINAL]: { target_id: 'tg_a', delivery_id: ORIGINAL, ...failed },
          [RESENT]: { target_id: 'tg_a', delivery_id: RESENT, ...delivered },
        },
      },
      'completed',
    ],
    [
      'a delivered delivery resent and failing again is in Errors: the latest delivery of a target counts',
      {
        outcome: 'ACCEPTED',
        target_count: 1,
        deliveries: {
          [RESENT]: { target_id: 'tg_a', delivery_id: RESENT, ...failed },
          [ORIGINAL]: { target_id: 'tg_a', delivery_id: ORIGINAL, ...delivered },
        },
      },
      'errors',
    ],
    [
      'a resend still retrying makes the row Pending',
      {
        outcome: 'ACCEPTED',
        target_count: 1,
        deliveries: {
          [ORIGINAL]: { target_id: 'tg_a', delivery_id: ORIGINAL, ...failed },
          [RESENT]: { target_id: 'tg_a', delivery_id: RESENT, ...retrying },
        },
      },
      'pending',
    ],
  ])('%s', (_name, doc, expected) => {
    expect(statusOf(doc)).toBe(expected);
  });
});

describe("a row's next attempt, as the list shows it (retrying, not never tried)", () => {
  const at = (iso: string) => new Date(iso);
  const waiting = (iso: string) => ({
    attempts: { '1': { attempt: 1, state: 'retrying' as const, next_attempt_at: at(iso) } },
  });

  it('is the soonest next attempt of the current deliveries that failed and wait', () => {
    expect(
      nextAttemptMs({ a: waiting('2030-01-01T00:10:00Z'), b: waiting('2030-01-01T00:05:00Z'), c: delivered }),
    ).toBe(Date.parse('2030-01-01T00:05:00Z'));
  });

  it('is null when nothing waits: never tried yet, delivered, failed for good, or replaced by a resend', () => {
    expect(nextAttemptMs({})).toBeNull();
    expect(nextAttemptMs({ a: delivered, b: failed })).toBeNull();
    expect(
      nextAttemptMs({
        [ORIGINAL]: { target_id: 'tg_a', delivery_id: ORIGINAL, ...waiting('2030-01-01T00:10:00Z') },
        [RESENT]: { target_id: 'tg_a', delivery_id: RESENT, ...delivered },
      }),
    ).toBeNull();
  });

  it('travels in index entries and changes; pages written before it existed read as none', () => {
    const entry = PENDING_ENTRY;
    expect(decodeEntries(encodeEntries([entry]))).toEqual([entry]);
    // an alert's row keeps its mark beside the test flag
    const alertRow = { ...entry, test: true, alert: true };
    expect(decodeEntries(encodeEntries([alertRow]))).toEqual([alertRow]);
    expect(decodeChanges(encodeChanges([{ event_id: EVT, status: 'pending', last_error: null, retry_ms: 5 }]))).toEqual(
      [{ event_id: EVT, status: 'pending', last_error: null, retry_ms: 5 }],
    );
    const old = JSON.stringify([[EVT, 1, 'ep_1', 'POST', null, 'ACCEPTED', null, 'p', null, 1, 0]]);
    expect(decodeEntries(old)[0]!).toMatchObject({ retry_ms: null, alert: false });
    expect(decodeChanges(JSON.stringify([[EVT, 'p', null]]))[0]!.retry_ms).toBeNull();
  });
});

describe('index entries written again for the same row', () => {
  const entry: IndexEntry = {
    ...PENDING_ENTRY,
    received_ms: 1_800_000_000_000,
    status: 'completed',
    last_error: null,
    retry_ms: null,
  };

  it('an entry keeps when it was written, stored as the time since its request was received', () => {
    const placed = { ...entry, placed_ms: entry.received_ms + 1500 };
    expect(JSON.parse(encodeEntries([placed]))[0]).toHaveLength(13);
    expect(JSON.parse(encodeEntries([placed]))[0][12]).toBe(1500);
    expect(decodeEntries(encodeEntries([placed]))).toEqual([placed]);
    // pages written before entries kept it: no such element, no such field
    expect(decodeEntries(encodeEntries([entry]))).toEqual([entry]);
    expect(decodeEntries(encodeEntries([entry]))[0]).not.toHaveProperty('placed_ms');
  });

  it('a change says when the row was written again; changes written before say nothing of it', () => {
    const change = { event_id: EVT, status: 'completed' as const, last_error: null, retry_ms: null };
    const replaced = { ...change, replaced_ms: entry.received_ms + 9000 };
    expect(decodeChanges(encodeChanges([replaced]))).toEqual([replaced]);
    expect(decodeChanges(encodeChanges([change]))).toEqual([change]);
    expect(decodeChanges(encodeChanges([change]))[0]).not.toHaveProperty('replaced_ms');
  });
});
