import { sweepExpired } from '@relay/store';
import { createActivityWriter } from '../../../services/activity-writer/src/adapters/activity-store';
import { startManagement } from '../management/fixture';
import type { ManagementFixture } from '../management/fixture';
import { attempt, pipelineOn, request } from './fixtures';

/**
 * GET /v1/activity on the real store: every filter of the spec's Request activity view
 * (endpoint, date window, All / Completed / Pending / Errors / Test, source IP, error text,
 * the cross-endpoint view) with cursor paging, read by key only.
 */
let fx: ManagementFixture;
let other: { accountId: string; apiKey: string };
const T0 = Date.now() - 3 * 3_600_000; // three hours ago, spread over two hours below
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

beforeAll(async () => {
  fx = await startManagement('activityapi');
  other = await fx.newAccount();
  const acc = fx.accountId;
  const { write } = pipelineOn(fx.store, { keepPerMinute: 1000 });
  const messages = [];
  // 130 completed rows on ep_a over two hours, 20 on ep_b
  for (let i = 0; i < 150; i++) {
    const id = `evt_ok_${String(i).padStart(3, '0')}`;
    const ep = i < 130 ? 'ep_a' : 'ep_b';
    messages.push(request(id, { account_id: acc, endpoint_id: ep, target_count: 1, received_at: at(i * 0.8), source_ip: i % 10 === 0 ? '198.51.100.9' : '203.0.113.7' }));
    messages.push(attempt(id, 'tg_1', 1, 'delivered', { account_id: acc, endpoint_id: ep }));
  }
  messages.push(request('evt_auth', { account_id: acc, endpoint_id: 'ep_a', outcome: 'AUTH_FAILED', reason: 'invalid bearer token', target_count: 0, received_at: at(30) }));
  messages.push(request('evt_pending', { account_id: acc, endpoint_id: 'ep_a', target_count: 1, received_at: at(40) }));
  messages.push(request('evt_test', { account_id: acc, endpoint_id: 'ep_a', target_count: 0, test: true, received_at: at(50) }));
  messages.push(request('evt_fail', { account_id: acc, endpoint_id: 'ep_b', target_count: 1, received_at: at(60) }));
  messages.push(attempt('evt_fail', 'tg_1', 1, 'failed', { account_id: acc, endpoint_id: 'ep_b', error: 'HTTP 410 Gone from receiver' }));
  messages.push(request('evt_other', { account_id: other.accountId, endpoint_id: 'ep_a', target_count: 0, received_at: at(45) }));
  await write(messages);
  // a retry settles a row later: its status moves in the index through a change page
  await write([request('evt_late', { account_id: acc, endpoint_id: 'ep_b', target_count: 1, received_at: at(70) })]);
  await write([attempt('evt_late', 'tg_1', 1, 'retrying', { account_id: acc, endpoint_id: 'ep_b', error: 'connect ECONNREFUSED' })]);
  await write([attempt('evt_late', 'tg_1', 2, 'failed', { account_id: acc, endpoint_id: 'ep_b', error: 'HTTP 500 after retries' })]);
});
afterAll(() => fx.close());

async function all(query: string): Promise<{ id: string; received_at: string }[]> {
  const rows: { id: string; received_at: string }[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const res = await fx.api('get', `/v1/activity?${query}&limit=40${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    rows.push(...res.body.data);
    cursor = res.body.next_cursor;
    if (!cursor) return rows;
  }
  throw new Error('paging did not end');
}

describe('Request activity filters (spec "Activity record")', () => {
  it('cross-endpoint view: every row of the account, newest minute first, each once across cursor pages', async () => {
    const rows = await all('status=all');
    expect(rows).toHaveLength(155);
    expect(new Set(rows.map((r) => r.id)).size).toBe(155);
    // newest first by minute; within a minute in the order the writer stored the rows (evt_late,
    // written by a later flush, may sit ahead of a row a few seconds newer: docs/management-api.md)
    const minutes = rows.map((r) => r.received_at.slice(0, 16));
    expect(minutes).toEqual([...minutes].sort().reverse());
    expect(rows.some((r) => r.id === 'evt_other')).toBe(false); // another account's row
  });

  it('endpoint filter', async () => {
    expect(await all('endpoint_id=ep_b')).toHaveLength(22);
    expect((await all('endpoint_id=ep_a')).every((r) => (r as unknown as { endpoint_id: string }).endpoint_id === 'ep_a')).toBe(true);
  });

  it('date window: from inclusive, to exclusive', async () => {
    const rows = await all(`from=${encodeURIComponent(at(30))}&to=${encodeURIComponent(at(60))}`);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.received_at >= at(30) && r.received_at < at(60))).toBe(true);
    expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining(['evt_auth', 'evt_pending', 'evt_test']));
  });

  it.each([
    ['Completed (the accepted test request without targets too)', 'completed', 151],
    ['Pending', 'pending', 1],
    ['Errors (a rejection, a failed delivery, a retried delivery that failed later)', 'errors', 3],
    ['Test', 'test', 1],
  ])('status group %s', async (_name, status, count) => {
    expect(await all(`status=${status}`)).toHaveLength(count as number);
  });

  it('source IP', async () => {
    const rows = await all('source_ip=198.51.100.9');
    expect(rows).toHaveLength(15);
  });

  it('error text: a case-insensitive literal substring of the reason or the latest delivery error, within 24 hours', async () => {
    expect((await all('error=GONE')).map((r) => r.id)).toEqual(['evt_fail']);
    expect((await all('error=after%20retries')).map((r) => r.id)).toEqual(['evt_late']);
    expect((await all('error=bearer')).map((r) => r.id)).toEqual(['evt_auth']);
    expect(await all('error=.*')).toHaveLength(0); // never a regex
    const wide = await fx.api('get', `/v1/activity?error=x&from=${encodeURIComponent(at(-3000))}&to=${encodeURIComponent(at(100))}`);
    expect(wide.status).toBe(400);
    expect(wide.body.errors[0]).toMatchObject({ field: 'error', message: expect.stringContaining('24 hours') });
  });

  it('a bad cursor or filter is a 400 naming the field', async () => {
    const res = await fx.api('get', '/v1/activity?cursor=nonsense&status=sometimes&limit=0');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['cursor', 'limit', 'status']);
  });

  it('a single row by event id, only for its own account', async () => {
    const own = await fx.api('get', '/v1/activity/evt_fail');
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: 'evt_fail', status: 'errors', last_error: 'HTTP 410 Gone from receiver', deliveries: [{ state: 'failed' }] });
    expect((await fx.api('get', '/v1/activity/evt_other')).status).toBe(404);
  });

  it('a sparse filter ends a page early with a cursor, and following the cursors finds every match', async () => {
    const res = await fx.api('get', '/v1/activity?source_ip=198.51.100.9&limit=200');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(15);
    expect(await all('source_ip=198.51.100.9')).toHaveLength(15);
  });
});

describe('retention', () => {
  it('removes the rows and index of expired hours and nothing else', async () => {
    const writer = createActivityWriter(fx.store);
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const ev = (id: string, received_at: string) => ({ event_id: id, request: request(id, { account_id: fx.accountId, endpoint_id: 'ep_old', target_count: 0, received_at }), attempts: [], tokens: [], oldest_ms: 0 });
    await writer.write({ events: [ev('evt_old_1', old), ev('evt_old_2', old), ev('evt_new', new Date().toISOString())], folds: [] });
    const swept = await sweepExpired(fx.store.activityIndex, fx.store.activityRows, Date.now(), 30 * 86_400_000, 24 * 60);
    expect(swept.rows).toBe(2);
    expect(await fx.store.activityRows.get('evt_old_1')).toBeNull();
    expect(await fx.store.activityRows.get('evt_old_2')).toBeNull();
    expect(await fx.store.activityRows.get('evt_new')).not.toBeNull();
    expect(await fx.store.activityRows.get('evt_ok_000')).not.toBeNull();
    expect(await fx.store.activity.countDocuments({ endpoint_id: 'ep_old' })).toBe(1);
    // nothing of the expired hour is left in the index
    const leftovers = await fx.store.connection.collection('activity_index').countDocuments({ _id: { $regex: old.slice(0, 13) } } as never);
    expect(leftovers).toBe(0);
    expect(await all('endpoint_id=ep_old')).toEqual([expect.objectContaining({ id: 'evt_new' })]);
  });
});
