import { isCursor, openActivityLog } from '@relay/activity-log';
import type { ActivityListQuery, ActivityLog, ActivityLogWriter, ActivityLogWriterOptions } from '@relay/activity-log';
import type { ActivityMessage, StoredPayloadV1 } from '@relay/contracts';
import { DAY_MS, attempt, eventId, fileStore, request } from './fixtures';

/**
 * The log's conformance through its public surface alone (`openActivityLog`: write, list, row,
 * payload, expire), on the real store: every filter of the list, paging with cursors,
 * aggregation, retention, redelivery and arrival order. The other files of this
 * folder check the layout underneath (pages, counts, partitions of the store).
 */
const store = fileStore('surface');
const log = (): ActivityLog => openActivityLog(store().connection);

const WRITER: ActivityLogWriterOptions = {
  holdMs: 0,
  maxHeld: 1000,
  batchSize: 10_000,
  maxWaitMs: 10,
  payloadMessagesPerFlush: 16,
  keepPerMinute: 10,
  retentionMs: 365 * DAY_MS,
};
const writers: ActivityLogWriter[] = [];
const writer = (over: Partial<ActivityLogWriterOptions> = {}): ActivityLogWriter => {
  const w = log().writer({ ...WRITER, ...over });
  writers.push(w);
  return w;
};
afterAll(async () => {
  for (const w of writers) await w.drain();
});

/** every row a query lists, following next_cursor (at most 50 pages) */
async function listAll(q: Partial<ActivityListQuery> & { account: string }): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const res = await log().list({
      endpointId: null,
      fromMs: Date.now() - DAY_MS,
      toMs: Date.now() + 60_000,
      limit: 50,
      status: 'all',
      sourceIp: null,
      errorText: null,
      payload: null,
      responseStatus: null,
      ...q,
      cursor,
    });
    ids.push(...res.rows.map((r) => r.event_id));
    if (res.next_cursor === null) return ids;
    expect(isCursor(res.next_cursor)).toBe(true);
    cursor = res.next_cursor;
  }
  throw new Error('more than 50 pages');
}

const payloadOf = (id: string, account: string, endpoint: string, at: string, body: string): StoredPayloadV1 => ({
  event_id: id,
  account_id: account,
  endpoint_id: endpoint,
  received_at: at,
  request: { method: 'POST', source_ip: '203.0.113.7', headers: {}, query: '' },
  payload: { content_type: 'application/json', body_base64: Buffer.from(body).toString('base64') },
});

describe('every filter of the list, through openActivityLog', () => {
  const acc = 'acc_filters';
  const t = Date.now() - 20 * 60_000;
  const at = (k: number) => new Date(t + k * 1000).toISOString();
  const on = { account_id: acc };
  const ids = {
    completed: eventId('f_completed', t + 1000),
    pending: eventId('f_pending', t + 2000),
    failed: eventId('f_failed', t + 3000),
    test: eventId('f_test', t + 4000),
    refused: eventId('f_refused', t + 5000),
  };

  beforeAll(async () => {
    const w = writer();
    const records: ActivityMessage[] = [
      request(ids.completed, { ...on, endpoint_id: 'ep_fa', received_at: at(1), target_count: 1 }),
      attempt(ids.completed, 'tg_1', 1, 'delivered', { ...on, endpoint_id: 'ep_fa', attempted_at: at(1) }),
      request(ids.pending, { ...on, endpoint_id: 'ep_fa', received_at: at(2), target_count: 1 }),
      attempt(ids.pending, 'tg_1', 1, 'retrying', { ...on, endpoint_id: 'ep_fa', attempted_at: at(2) }),
      request(ids.failed, { ...on, endpoint_id: 'ep_fb', received_at: at(3), target_count: 1 }),
      attempt(ids.failed, 'tg_2', 1, 'failed', {
        ...on,
        endpoint_id: 'ep_fb',
        attempted_at: at(3),
        status_code: 503,
        error: 'HTTP 503 from the receiver',
      }),
      request(ids.test, { ...on, endpoint_id: 'ep_fb', received_at: at(4), target_count: 1, test: true }),
      attempt(ids.test, 'tg_2', 1, 'delivered', { ...on, endpoint_id: 'ep_fb', attempted_at: at(4) }),
      request(ids.refused, {
        ...on,
        endpoint_id: 'ep_fa',
        received_at: at(5),
        outcome: 'AUTH_FAILED',
        reason: 'invalid bearer token',
        target_count: 0,
        source_ip: '198.51.100.9',
      }),
    ];
    await Promise.all([
      w.write(records),
      w.writePayloads([
        payloadOf(ids.completed, acc, 'ep_fa', at(1), '{"order":"order-42"}'),
        payloadOf(ids.failed, acc, 'ep_fb', at(3), '{"order":"order-7"}'),
      ]),
    ]);
  });

  it('status: All lists every row newest first; Completed, Pending, Errors and Test their own', async () => {
    expect(await listAll({ account: acc })).toEqual([ids.refused, ids.test, ids.failed, ids.pending, ids.completed]);
    expect(await listAll({ account: acc, status: 'completed' })).toEqual([ids.completed]);
    expect(await listAll({ account: acc, status: 'pending' })).toEqual([ids.pending]);
    expect(await listAll({ account: acc, status: 'errors' })).toEqual([ids.refused, ids.failed]);
    expect(await listAll({ account: acc, status: 'test' })).toEqual([ids.test]);
  });

  it('endpoint, alone and with a status', async () => {
    expect(await listAll({ account: acc, endpointId: 'ep_fb' })).toEqual([ids.test, ids.failed]);
    expect(await listAll({ account: acc, endpointId: 'ep_fa', status: 'errors' })).toEqual([ids.refused]);
    expect(await listAll({ account: acc, endpointId: 'ep_none' })).toEqual([]);
  });

  it('date window: from inclusive, to exclusive', async () => {
    expect(await listAll({ account: acc, fromMs: t + 2000, toMs: t + 4000 })).toEqual([ids.failed, ids.pending]);
  });

  it('source IP, error text (reason, delivery error, outcome label), payload text and response status', async () => {
    expect(await listAll({ account: acc, sourceIp: '198.51.100.9' })).toEqual([ids.refused]);
    expect(await listAll({ account: acc, errorText: 'BEARER' })).toEqual([ids.refused]);
    expect(await listAll({ account: acc, errorText: 'from the receiver' })).toEqual([ids.failed]);
    // a text only the outcome label holds: "Auth Failed (AUTH_FAILED)"
    expect(await listAll({ account: acc, errorText: 'auth failed' })).toEqual([ids.refused]);
    expect(await listAll({ account: acc, payload: 'order-42' })).toEqual([ids.completed]);
    // the retrying attempt answered 503 too
    expect(await listAll({ account: acc, responseStatus: '503' })).toEqual([ids.failed, ids.pending]);
    expect(await listAll({ account: acc, responseStatus: '5xx' })).toEqual([ids.failed, ids.pending]);
    expect(await listAll({ account: acc, responseStatus: '2xx' })).toEqual([ids.test, ids.completed]);
  });

  it('a further condition on each row (where), and other accounts never listed', async () => {
    expect(await listAll({ account: acc, where: (r) => r.endpoint_id === 'ep_fa' && r.status !== 'errors' })).toEqual([
      ids.pending,
      ids.completed,
    ]);
    expect(await listAll({ account: 'acc_other' })).toEqual([]);
  });

  it('a row reads back with its deliveries, and a payload as kept for resends', async () => {
    expect(await log().row(ids.failed)).toMatchObject({
      _id: ids.failed,
      status: 'errors',
      last_error: 'HTTP 503 from the receiver',
    });
    expect(Buffer.from((await log().payload(ids.completed))!.payload.body_base64, 'base64').toString()).toBe(
      '{"order":"order-42"}',
    );
    expect(await log().payload(ids.pending)).toBeNull();
  });
});

describe('paging, aggregation, redelivery and arrival order, through openActivityLog', () => {
  it('pages with next_cursor list every row once, newest first, whatever the page size', async () => {
    const acc = 'acc_paging';
    const t = Date.now() - 15 * 60_000;
    const ids = Array.from({ length: 23 }, (_, k) => eventId(`p${k}`, t + k * 1000));
    await writer().write(
      ids.map((id, k) =>
        request(id, {
          account_id: acc,
          endpoint_id: `ep_p${k % 3}`,
          received_at: new Date(t + k * 1000).toISOString(),
          target_count: 0,
        }),
      ),
    );
    const newestFirst = [...ids].reverse();
    for (const limit of [1, 5, 50]) expect(await listAll({ account: acc, limit })).toEqual(newestFirst);
    const first = await log().list({
      account: acc,
      endpointId: null,
      fromMs: Date.now() - DAY_MS,
      toMs: Date.now() + 60_000,
      cursor: null,
      limit: 5,
      status: 'all',
      sourceIp: null,
      errorText: null,
      payload: null,
      responseStatus: null,
    });
    expect(first.rows).toHaveLength(5);
    expect(isCursor('not-a-cursor')).toBe(false);
    await expect(
      log().list({
        account: acc,
        endpointId: null,
        fromMs: Date.now() - DAY_MS,
        toMs: Date.now(),
        cursor: 'not-a-cursor',
        limit: 5,
        status: 'all',
        sourceIp: null,
        errorText: null,
        payload: null,
        responseStatus: null,
      }),
    ).rejects.toThrow('not a list cursor');
  });

  it('identical refusals past keepPerMinute fold into one aggregated row with their count', async () => {
    const acc = 'acc_agg';
    const minute = Math.floor((Date.now() - 10 * 60_000) / 60_000) * 60_000;
    const flood = Array.from({ length: 25 }, (_, k) =>
      request(eventId(`a${k}`, minute + k * 100), {
        account_id: acc,
        endpoint_id: 'ep_agg',
        received_at: new Date(minute + k * 100).toISOString(),
        outcome: 'AUTH_FAILED',
        reason: 'invalid bearer token',
        target_count: 0,
      }),
    );
    await writer({ keepPerMinute: 10 }).write(flood);
    const rows = (
      await log().list({
        account: acc,
        endpointId: null,
        fromMs: Date.now() - DAY_MS,
        toMs: Date.now() + 60_000,
        cursor: null,
        limit: 50,
        status: 'errors',
        sourceIp: null,
        errorText: null,
        payload: null,
        responseStatus: null,
      })
    ).rows;
    const aggregated = rows.filter((r) => r.aggregated);
    expect(rows.filter((r) => !r.aggregated)).toHaveLength(10);
    expect(aggregated).toHaveLength(1);
    expect(aggregated[0]).toMatchObject({
      outcome: 'AUTH_FAILED',
      reason: 'invalid bearer token',
      source_ip: null,
      status: 'errors',
    });
    expect(await log().row(aggregated[0]!.event_id)).toMatchObject({ status: 'errors', aggregate: { count: 15 } });
  });

  it('redelivered records, to this writer or another, leave one row per request and the same list', async () => {
    const acc = 'acc_redelivery';
    const t = Date.now() - 12 * 60_000;
    const id = eventId('r0', t);
    const records: ActivityMessage[] = [
      request(id, { account_id: acc, received_at: new Date(t).toISOString(), target_count: 1 }),
      attempt(id, 'tg_1', 1, 'failed', { account_id: acc, attempted_at: new Date(t + 1000).toISOString() }),
    ];
    await writer().write(records);
    await writer().write(records);
    await writer().write([...records].reverse());
    expect(await listAll({ account: acc })).toEqual([id]);
    const row = await log().row(id);
    expect(row).toMatchObject({ status: 'errors' });
    expect(Object.values(row!.deliveries)).toHaveLength(1);
  });

  it('an attempt that arrives before its request converges to the same row as the usual order', async () => {
    const acc = 'acc_order';
    const t = Date.now() - 11 * 60_000;
    const usual = eventId('o_usual', t);
    const reversed = eventId('o_reversed', t + 1000);
    const recordsOf = (id: string, k: number): ActivityMessage[] => [
      request(id, { account_id: acc, received_at: new Date(t + k * 1000).toISOString(), target_count: 1 }),
      attempt(id, 'tg_1', 1, 'delivered', {
        account_id: acc,
        attempted_at: new Date(t + k * 1000 + 500).toISOString(),
      }),
    ];
    const w = writer();
    await w.write(recordsOf(usual, 0));
    const [req, att] = recordsOf(reversed, 1);
    await w.write([att!]);
    expect(await listAll({ account: acc, status: 'completed' })).toEqual([usual]);
    await w.write([req!]);
    expect(await listAll({ account: acc, status: 'completed' })).toEqual([reversed, usual]);
    expect(await listAll({ account: acc })).toEqual([reversed, usual]);
    const [a, b] = [await log().row(usual), await log().row(reversed)];
    expect(b).toMatchObject({
      status: a!.status,
      outcome: a!.outcome,
      target_count: a!.target_count,
      last_error: a!.last_error,
    });
  });
});

describe('retention, through openActivityLog', () => {
  it('expire drops the hours older than the retention period: their rows, list entries and payloads are gone, newer ones stay', async () => {
    const acc = 'acc_retention';
    const old = Date.parse('2026-09-01T05:10:00.000Z');
    const now = Date.parse('2026-11-01T00:00:00.000Z');
    const oldId = eventId('ret_old', old);
    const keptId = eventId('ret_kept', now - 5 * DAY_MS);
    await Promise.all([
      writer().write([
        request(oldId, { account_id: acc, received_at: new Date(old).toISOString(), target_count: 0 }),
        request(keptId, { account_id: acc, received_at: new Date(now - 5 * DAY_MS).toISOString(), target_count: 0 }),
      ]),
      writer().writePayloads([payloadOf(oldId, acc, 'ep_1', new Date(old).toISOString(), '{}')]),
    ]);
    const window = { fromMs: old - 3_600_000, toMs: now };
    expect(await listAll({ account: acc, ...window })).toEqual([keptId, oldId]);
    const dropped = await log().expire(now, 30 * DAY_MS);
    expect(dropped).toEqual(expect.arrayContaining(['activity_rows_2026090105', 'activity_payloads_2026090105']));
    expect(await listAll({ account: acc, ...window })).toEqual([keptId]);
    expect(await log().row(oldId)).toBeNull();
    expect(await log().payload(oldId)).toBeNull();
    expect(await log().row(keptId)).not.toBeNull();
  });
});
