import { deliveryIdFor, resendDeliveryId, resendTag } from '@relay/contracts';
import type { ListedRow as IndexEntry, StoredPayload } from '@relay/activity-log';
import type { ActivityDoc } from '@relay/store';
import { jobMatches, parseBulkRetry, retryRow, zeroCounts } from './bulk-retry-job';
import type { HeldReason, RowRetryPorts } from './bulk-retry-job';

const NOW = Date.parse('2030-01-02T00:00:00Z');
const DAY = 86_400_000;
const EVT = 'evt_01m83e0000aaaaaaaaaaaaaaaa';

describe('bulk retry filter (POST /v1/bulk-retries)', () => {
  it('defaults to the last 24 hours of the Errors group at the highest rate, and caps the window at the retention period', () => {
    expect(parseBulkRetry({}, NOW, 30 * DAY, 100)).toEqual({
      ok: true,
      value: { filter: { endpoint_id: null, target_id: null, from_ms: NOW - DAY, to_ms: NOW }, rate_per_second: 100 },
    });
    const wide = parseBulkRetry(
      { from: '2000-01-01T00:00:00Z', endpoint_id: 'ep_1', status: 'errors', rate_per_second: 5 },
      NOW,
      30 * DAY,
      100,
    );
    expect(wide).toMatchObject({
      ok: true,
      value: { filter: { from_ms: NOW - 30 * DAY, endpoint_id: 'ep_1' }, rate_per_second: 5 },
    });
  });

  it('refuses another status group, a target without its endpoint, a rate over the maximum, an empty window', () => {
    const r = parseBulkRetry(
      { status: 'completed', target_id: 'tg_1', rate_per_second: 101, from: '2030-01-03T00:00:00Z', x: 1 },
      NOW,
      30 * DAY,
      100,
    );
    expect(r.ok ? [] : r.errors.map((e) => e.field).sort()).toEqual([
      'from',
      'rate_per_second',
      'status',
      'target_id',
      'x',
    ]);
  });

  it("selects the senders' rows in Errors of the endpoint", () => {
    const e = { status: 'errors', test: false, endpoint_id: 'ep_1' } as IndexEntry;
    const f = { endpoint_id: 'ep_1', target_id: null, from_ms: 0, to_ms: 1 };
    expect(jobMatches(f, e)).toBe(true);
    expect(jobMatches(f, { ...e, test: true })).toBe(false);
    expect(jobMatches(f, { ...e, status: 'completed' })).toBe(false);
    expect(jobMatches(f, { ...e, endpoint_id: 'ep_2' })).toBe(false);
  });
});

const attempt = (state: 'delivered' | 'failed' | 'transform_failed' | 'dropped') => ({
  '1': {
    attempt: 1,
    attempted_at: new Date(),
    state,
    status_code: 500,
    duration_ms: 1,
    error: 'HTTP 500',
    next_attempt_at: null,
  },
});
const rowDoc = (
  deliveries: Record<string, { target: string; state: 'delivered' | 'failed' | 'transform_failed' | 'dropped' }>,
): ActivityDoc =>
  ({
    _id: EVT,
    account_id: 'acc_1',
    endpoint_id: 'ep_1',
    received_at: new Date(NOW),
    method: 'POST',
    source_ip: '1.2.3.4',
    outcome: 'ACCEPTED',
    reason: null,
    target_count: 2,
    test: false,
    status: 'errors',
    last_error: null,
    aggregate: null,
    deliveries: Object.fromEntries(
      Object.entries(deliveries).map(([id, d]) => [
        id,
        { delivery_id: id, target_id: d.target, target_kind: 'webhook', state: d.state, attempts: attempt(d.state) },
      ]),
    ),
  }) as unknown as ActivityDoc;
const payload: StoredPayload = {
  request: { method: 'POST', source_ip: '1.2.3.4', headers: {}, query: '' },
  payload: { content_type: 'application/json', body_base64: 'e30=' },
};

function ports(
  row: ActivityDoc | null,
  stored: StoredPayload | null = payload,
  targets = ['tg_a', 'tg_b'],
  allowance = 100,
  held: Record<string, HeldReason> = {},
) {
  const published: string[] = [];
  const paced: number[] = [];
  const used = { n: 0 };
  const p: RowRetryPorts = {
    take: async (_id, n) => (used.n + n <= allowance ? ((used.n += n), true) : false),
    giveBack: async (_id, n) => void (used.n -= n),
    row: async () => row,
    payload: async () => stored,
    target: async (id) =>
      targets.includes(id)
        ? { id, kind: 'webhook', channel: 'webhook', endpoint_id: 'ep_1', name: id, held: held[id] ?? null }
        : null,
    pace: async (n) => void paced.push(n),
    publish: async (d) => void published.push(...d.map((x) => x.message.delivery_id)),
  };
  return { p, published, paced, used };
}

describe('retrying one row of a bulk retry', () => {
  it('leaves out the delivery to a flagged target and retries the row’s others, counting what it left out', async () => {
    const { p, published } = ports(
      rowDoc({ a: { target: 'tg_a', state: 'failed' }, b: { target: 'tg_b', state: 'failed' } }),
      payload,
      ['tg_a', 'tg_b'],
      100,
      { tg_a: 'flagged' },
    );
    const counts = zeroCounts();
    const tag = resendTag(NOW);
    await retryRow(
      { event_id: EVT, outcome: 'ACCEPTED', aggregated: false } as IndexEntry,
      { endpoint_id: null, target_id: null, from_ms: 0, to_ms: 1 },
      tag,
      p,
      counts,
    );
    expect(published).toEqual([resendDeliveryId(EVT, 'tg_b', tag)]);
    expect(counts).toMatchObject({ deliveries_queued: 1, deliveries_held: 1, rows_retried: 1, skipped_target_held: 0 });
  });

  const entry = { event_id: EVT, outcome: 'ACCEPTED', aggregated: false } as IndexEntry;
  const filter = { endpoint_id: null, target_id: null, from_ms: 0, to_ms: 1 };
  const tag = resendTag(NOW);

  it("delivers again to each target whose current delivery failed, with the job's tag, paced", async () => {
    const { p, published, paced } = ports(
      rowDoc({
        [deliveryIdFor(EVT, 'tg_a')]: { target: 'tg_a', state: 'failed' },
        [deliveryIdFor(EVT, 'tg_b')]: { target: 'tg_b', state: 'delivered' },
      }),
    );
    const counts = zeroCounts();
    await retryRow(entry, filter, tag, p, counts);
    expect(published).toEqual([resendDeliveryId(EVT, 'tg_a', tag)]);
    expect(paced).toEqual([1]);
    expect(counts).toMatchObject({ rows_scanned: 1, rows_retried: 1, deliveries_queued: 1 });
  });

  it('a delivery whose transformation failed is delivered again (through the current version); a dropped one is not', async () => {
    const { p, published } = ports(
      rowDoc({
        [deliveryIdFor(EVT, 'tg_a')]: { target: 'tg_a', state: 'transform_failed' },
        [deliveryIdFor(EVT, 'tg_b')]: { target: 'tg_b', state: 'dropped' },
      }),
    );
    await retryRow(entry, filter, tag, p, zeroCounts());
    expect(published).toEqual([resendDeliveryId(EVT, 'tg_a', tag)]);
  });

  it('a delivery already replaced by a resend that delivered is not retried again', async () => {
    const { p, published } = ports(
      rowDoc({
        [deliveryIdFor(EVT, 'tg_a')]: { target: 'tg_a', state: 'failed' },
        [resendDeliveryId(EVT, 'tg_a', tag)]: { target: 'tg_a', state: 'delivered' },
      }),
    );
    const counts = zeroCounts();
    await retryRow(entry, filter, tag, p, counts);
    expect(published).toEqual([]);
    expect(counts.skipped_not_failed).toBe(1);
  });

  it("takes the row's new deliveries from the event's allowance, the one resends use", async () => {
    const { p, used } = ports(
      rowDoc({ a: { target: 'tg_a', state: 'failed' }, b: { target: 'tg_b', state: 'failed' } }),
    );
    await retryRow(entry, filter, tag, p, zeroCounts());
    expect(used.n).toBe(2);
  });

  it('gives the allowance back when the broker did not take the deliveries, and fails the row (the run resumes it)', async () => {
    const { p, used } = ports(rowDoc({ a: { target: 'tg_a', state: 'failed' } }));
    p.publish = async () => {
      throw new Error('broker down');
    };
    await expect(retryRow(entry, filter, tag, p, zeroCounts())).rejects.toThrow('broker down');
    expect(used.n).toBe(0);
  });

  it.each([
    [
      'a rejected request, without reading it',
      { ...entry, outcome: 'AUTH_FAILED' },
      ports(null),
      'skipped_not_accepted',
    ],
    [
      'a row without a stored payload',
      entry,
      ports(rowDoc({ d: { target: 'tg_a', state: 'failed' } }), null),
      'skipped_no_payload',
    ],
    [
      'a row whose failed target is gone',
      entry,
      ports(rowDoc({ d: { target: 'tg_gone', state: 'failed' } })),
      'skipped_target_gone',
    ],
    [
      'a row whose new deliveries would pass the per-event ceiling, whole',
      entry,
      ports(
        rowDoc({ a: { target: 'tg_a', state: 'failed' }, b: { target: 'tg_b', state: 'failed' } }),
        payload,
        ['tg_a', 'tg_b'],
        1,
      ),
      'skipped_resend_limit',
    ],
    [
      'a row whose every failed delivery goes to a flagged or paused target',
      entry,
      ports(
        rowDoc({ a: { target: 'tg_a', state: 'failed' }, b: { target: 'tg_b', state: 'failed' } }),
        payload,
        ['tg_a', 'tg_b'],
        100,
        { tg_a: 'flagged', tg_b: 'paused' },
      ),
      'skipped_target_held',
    ],
  ])('skips %s', async (_n, e, f, counter) => {
    const counts = zeroCounts();
    await retryRow(e, filter, tag, f.p, counts);
    expect(f.published).toEqual([]);
    expect(counts[counter as keyof typeof counts]).toBe(1);
  });
});
