import { ACTIVITY_ATTEMPT_V1, ACTIVITY_REQUEST_V1 } from '@relay/contracts';
import type { ActivityAttemptV1, ActivityRequestV1 } from '@relay/contracts';
import { connectStore, toActivity } from '@relay/store';
import type { Store } from '@relay/store';
import { createActivityWriter } from '../../../services/activity-writer/src/adapters/activity-store';
import { testNamespace } from '../../support/infra';

const { mongodbUrl } = testNamespace('activity');
let store: Store;

beforeAll(async () => {
  store = await connectStore(mongodbUrl);
});
afterAll(async () => {
  await store.connection.dropDatabase();
  await store.close();
});

const request = (eventId: string, over: Partial<ActivityRequestV1> = {}): ActivityRequestV1 => ({
  type: ACTIVITY_REQUEST_V1,
  event_id: eventId,
  account_id: 'acc_1',
  endpoint_id: 'ep_1',
  received_at: '2026-11-21T05:00:00.000Z',
  method: 'POST',
  source_ip: '203.0.113.7',
  outcome: 'ACCEPTED',
  reason: null,
  target_count: 2,
  test: false,
  ...over,
});

const attempt = (eventId: string, target: string, n: number, state: ActivityAttemptV1['state'], over: Partial<ActivityAttemptV1> = {}): ActivityAttemptV1 => ({
  type: ACTIVITY_ATTEMPT_V1,
  event_id: eventId,
  delivery_id: `dlv_${eventId}_${target}`,
  account_id: 'acc_1',
  endpoint_id: 'ep_1',
  target_id: target,
  target_kind: 'webhook',
  attempt: n,
  attempted_at: `2026-11-21T05:00:0${n}.000Z`,
  state,
  status_code: state === 'delivered' ? 200 : 503,
  duration_ms: 12.5,
  error: state === 'delivered' ? null : 'HTTP 503',
  next_attempt_at: state === 'retrying' ? '2026-11-21T05:00:30.000Z' : null,
  ...over,
});

async function row(eventId: string) {
  const doc = await store.activity.findById(eventId).lean();
  return doc ? toActivity(doc) : null;
}

describe('activity-writer on the real MongoDB-wire store', () => {
  it('keeps one row per request with time, endpoint, outcome, reason, method and source IP', async () => {
    const writer = createActivityWriter(store);
    await writer.write([request('evt_a', { outcome: 'AUTH_FAILED', reason: 'missing Authorization header', target_count: 0 })]);
    expect(await row('evt_a')).toMatchObject({
      id: 'evt_a',
      endpoint_id: 'ep_1',
      outcome: 'AUTH_FAILED',
      reason: 'missing Authorization header',
      method: 'POST',
      source_ip: '203.0.113.7',
      received_at: new Date('2026-11-21T05:00:00.000Z'),
      status: 'errors',
      deliveries: [],
    });
  });

  it('attaches delivery attempts to their request row: Pending while attempts remain, then Completed', async () => {
    const writer = createActivityWriter(store);
    await writer.write([request('evt_b'), attempt('evt_b', 'tg_1', 1, 'retrying')]);
    expect((await row('evt_b'))!.status).toBe('pending');
    await writer.write([attempt('evt_b', 'tg_1', 2, 'delivered'), attempt('evt_b', 'tg_2', 1, 'delivered')]);
    const done = (await row('evt_b'))!;
    expect(done.status).toBe('completed');
    expect(done.deliveries.map((d) => [d.target_id, d.state, d.attempts.map((a) => a.attempt)])).toEqual([
      ['tg_1', 'delivered', [1, 2]],
      ['tg_2', 'delivered', [1]],
    ]);
    expect(done.deliveries[0]!.attempts[0]).toMatchObject({ state: 'retrying', status_code: 503, error: 'HTTP 503', next_attempt_at: new Date('2026-11-21T05:00:30.000Z') });
  });

  it('lands the same row whatever the arrival order, and a redelivered message changes nothing', async () => {
    const writer = createActivityWriter(store);
    const messages = [attempt('evt_c', 'tg_1', 1, 'failed'), request('evt_c', { target_count: 1 })];
    await writer.write([messages[0]!]);
    expect((await row('evt_c'))!.status).toBe('pending'); // the request row has not arrived yet
    await writer.write([messages[1]!, messages[0]!]); // the attempt again: a redelivery
    const r = (await row('evt_c'))!;
    expect(r.status).toBe('errors');
    expect(r.deliveries[0]!.attempts).toHaveLength(1);
  });

  it('applies a batch with more than 100 updates (FerretDB never answers an update of 100+ statements; the writer chunks)', async () => {
    const writer = createActivityWriter(store);
    const ids = Array.from({ length: 150 }, (_, i) => `evt_many_${i}`);
    await writer.write(ids.map((id) => request(id, { target_count: 1 })));
    await writer.write([...ids.map((id) => attempt(id, 'tg_1', 1, 'delivered')), ...ids.map((id) => request(id, { target_count: 1 }))]);
    expect(await store.activity.countDocuments({ _id: { $in: ids }, status: 'completed' })).toBe(150);
  });

  it('keeps the latest delivery error on the row for the error-text filter', async () => {
    const writer = createActivityWriter(store);
    await writer.write([request('evt_e', { target_count: 1 }), attempt('evt_e', 'tg_1', 1, 'retrying', { error: 'connect ECONNREFUSED' }), attempt('evt_e', 'tg_1', 2, 'failed', { error: 'HTTP 410' })]);
    const doc = await store.activity.findById('evt_e').lean();
    expect(doc).toMatchObject({ status: 'errors', last_error: 'HTTP 410' });
  });

  it('writes a large batch in one bulk write', async () => {
    const writer = createActivityWriter(store);
    const batch = Array.from({ length: 300 }, (_, i) => request(`evt_bulk_${i}`, { target_count: 0 }));
    await writer.write(batch);
    expect(await store.activity.countDocuments({ _id: { $regex: '^evt_bulk_' } })).toBe(300);
    expect(await store.activity.countDocuments({ _id: { $regex: '^evt_bulk_' }, status: 'completed' })).toBe(300);
  });
});
