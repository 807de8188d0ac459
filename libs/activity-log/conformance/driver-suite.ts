import { activityPartitionOf, deliveryIdFor, resendDeliveryId, resendTag } from '@relay/contracts';
import type { ActivityMessage } from '@relay/contracts';
import { toActivity } from '@relay/store';
import { isCursor, openActivityLog } from '@relay/activity-log';
import type {
  ActivityListQuery,
  ActivityLog,
  ActivityLogDriver,
  ActivityLogWriter,
  ActivityLogWriterOptions,
  ListedRow,
} from '@relay/activity-log';
import { DAY_MS, WRITER_OPTIONS, attempt, eventId, fileStore, listQuery, payloadOf, request } from './fixtures';

/**
 * The activity log's driver suite: what every driver must answer the same, through the
 * library's surface alone (`openActivityLog`: write, list, row, payload, expire), on the real
 * store — every filter of the list, paging with cursors, aggregation, retention, redelivery,
 * arrival order, retries, resends and a writer taking over another's rows. Each driver's test
 * file runs it (ferretdb-driver.test.ts, mongodb-driver.test.ts); what is a driver's own (the
 * FerretDB driver's pages, counts and partitions) is tested beside it.
 */
export function activityLogDriverSuite(driver: ActivityLogDriver): void {
  const store = fileStore(`driver-${driver}`);
  const log = (): ActivityLog => openActivityLog(store().connection, driver);

  const writers: ActivityLogWriter[] = [];
  const writer = (over: Partial<ActivityLogWriterOptions> = {}): ActivityLogWriter => {
    const w = log().writer({ ...WRITER_OPTIONS, retentionMs: 365 * DAY_MS, ...over });
    writers.push(w);
    return w;
  };
  afterAll(async () => {
    for (const w of writers) await w.drain();
  });

  /** every row a query lists, following next_cursor (at most 50 pages) */
  async function listRows(q: Partial<ActivityListQuery> & { account: string }): Promise<ListedRow[]> {
    const rows: ListedRow[] = [];
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
      rows.push(...res.rows);
      if (res.next_cursor === null) return rows;
      expect(isCursor(res.next_cursor)).toBe(true);
      cursor = res.next_cursor;
    }
    throw new Error('more than 50 pages');
  }
  const listAll = async (q: Partial<ActivityListQuery> & { account: string }): Promise<string[]> =>
    (await listRows(q)).map((r) => r.event_id);

  describe('every filter of the list, through the driver', () => {
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
      expect(await listAll({ account: acc, where: (r) => r.endpoint_id === 'ep_fa' && r.status !== 'errors' })).toEqual(
        [ids.pending, ids.completed],
      );
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

  describe('paging, aggregation, redelivery and arrival order, through the driver', () => {
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
      const first = await log().list(listQuery(acc, { fromMs: Date.now() - DAY_MS, limit: 5 }));
      expect(first.rows).toHaveLength(5);
      expect(isCursor('not-a-cursor')).toBe(false);
      await expect(
        log().list(listQuery(acc, { fromMs: Date.now() - DAY_MS, cursor: 'not-a-cursor', limit: 5 })),
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
      const { rows } = await log().list(listQuery(acc, { fromMs: Date.now() - DAY_MS, limit: 50, status: 'errors' }));
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

    it('a row written again by a writer that had not seen it (a redelivery after a lost ack) is listed once across pages', async () => {
      const on = { account_id: 'acc_relisted' };
      const t = Date.now() - 13 * 60_000;
      const [x, y] = [eventId('relisted_x', t), eventId('relisted_y', t + 1000)];
      const recordX = request(x, { ...on, received_at: new Date(t).toISOString(), target_count: 1 });
      await writer().write([recordX]);
      await writer().write([request(y, { ...on, received_at: new Date(t + 1000).toISOString(), target_count: 0 })]);
      const listedOnce = async (): Promise<void> => {
        for (const limit of [1, 2, 50])
          expect((await listAll({ account: on.account_id, limit })).sort()).toEqual([x, y].sort());
      };
      // the same record again, to a writer with no memory of it: the row is as it was
      await writer().write([recordX]);
      await listedOnce();
      // and with its attempt: the row changed, and is listed as it is now
      await writer().write([
        recordX,
        attempt(x, 'tg_1', 1, 'delivered', { ...on, attempted_at: new Date(t + 500).toISOString() }),
      ]);
      await listedOnce();
      const [listed] = (await listRows({ account: on.account_id, limit: 1 })).filter((r) => r.event_id === x);
      expect(listed).toMatchObject({ status: 'completed' });
    });

    it("a stuck key's mark stays on its attempt when the attempt's earlier record arrives again", async () => {
      const acc = 'acc_mark';
      const t = Date.now() - 12 * 60_000;
      const id = eventId('mark', t);
      const first = attempt(id, 'tg_1', 1, 'retrying', {
        account_id: acc,
        attempted_at: new Date(t + 500).toISOString(),
      });
      const marked = { ...first, ordering: { key: 'A', stuck_since: new Date(t + 3500).toISOString() } };
      const w = writer();
      await w.write([request(id, { account_id: acc, received_at: new Date(t).toISOString(), target_count: 1 }), first]);
      await w.write([marked]);
      // the first record again, as a redelivered message would bring it
      await w.write([first]);
      const row = toActivity((await log().row(id))!);
      expect(row.deliveries[0]!.attempts.map((a) => [a.attempt, a.state, a.ordering])).toEqual([
        [1, 'retrying', marked.ordering],
      ]);
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

  describe('retention, through the driver', () => {
    it('expire removes what is older than the retention period: its rows, list entries and payloads are gone, newer ones stay', async () => {
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
      await log().expire(now, 30 * DAY_MS);
      expect(await listAll({ account: acc, ...window })).toEqual([keptId]);
      expect(await log().row(oldId)).toBeNull();
      expect(await log().payload(oldId)).toBeNull();
      expect(await log().row(keptId)).not.toBeNull();
    });
  });

  describe('retries, resends and writers, through the driver', () => {
    const acc = 'acc_retries';
    const on = { account_id: acc };
    /** the row as the account's list shows it now */
    const listedRow = async (id: string) => (await listRows({ account: acc })).find((r) => r.event_id === id) ?? null;
    const rowOf = async (id: string) => toActivity((await log().row(id))!);

    it('Pending while a delivery retries, then Completed; a writer with no memory of the row (a restart) merges each further attempt', async () => {
      const id = eventId('retried');
      await writer().write([request(id, on)]);
      await writer().write([attempt(id, 'tg_1', 1, 'retrying', on)]);
      expect(await listedRow(id)).toMatchObject({ status: 'pending' });
      await writer().write([attempt(id, 'tg_1', 2, 'delivered', on), attempt(id, 'tg_2', 1, 'delivered', on)]);
      const done = await rowOf(id);
      expect(done.status).toBe('completed');
      expect(done.deliveries.map((d) => [d.target_id, d.state, d.attempts.map((a) => a.attempt)])).toEqual([
        ['tg_1', 'delivered', [1, 2]],
        ['tg_2', 'delivered', [1]],
      ]);
      expect(done.deliveries[0]!.attempts[0]).toMatchObject({ state: 'retrying', status_code: 503, error: 'HTTP 503' });
      expect(await listedRow(id)).toMatchObject({ status: 'completed' });
    });

    it('the list follows the next attempt of a retrying delivery: set by the first failure, moved by a retry that fails again, gone once delivered', async () => {
      const w = writer();
      const id = eventId('next_attempt');
      const next = (ms: number) => new Date(Date.now() + ms).toISOString();
      const [first, second] = [next(60_000), next(600_000)];
      await w.write([
        request(id, { ...on, target_count: 1 }),
        attempt(id, 'tg_1', 1, 'retrying', { ...on, next_attempt_at: first }),
      ]);
      expect(await listedRow(id)).toMatchObject({ status: 'pending', retry_ms: Date.parse(first) });
      await w.write([attempt(id, 'tg_1', 2, 'retrying', { ...on, next_attempt_at: second })]);
      expect(await listedRow(id)).toMatchObject({
        status: 'pending',
        last_error: 'HTTP 503',
        retry_ms: Date.parse(second),
      });
      await w.write([attempt(id, 'tg_1', 3, 'delivered', on)]);
      expect(await listedRow(id)).toMatchObject({ status: 'completed', retry_ms: null });
    });

    it('a request never tried yet lists no next attempt: Pending, not retrying', async () => {
      const id = eventId('untried');
      await writer().write([request(id, { ...on, target_count: 1 })]);
      expect(await listedRow(id)).toMatchObject({ status: 'pending', retry_ms: null });
    });

    it('an Errors row when a delivery failed for good, its latest error listed and found by the error-text filter', async () => {
      const w = writer();
      const id = eventId('failed_for_good');
      await w.write([
        request(id, { ...on, target_count: 1 }),
        attempt(id, 'tg_1', 1, 'retrying', { ...on, error: 'connect ECONNREFUSED' }),
      ]);
      await w.write([attempt(id, 'tg_1', 2, 'failed', { ...on, error: 'HTTP 410 gone for good' })]);
      expect(await rowOf(id)).toMatchObject({ status: 'errors', last_error: 'HTTP 410 gone for good' });
      expect(await listedRow(id)).toMatchObject({ status: 'errors', last_error: 'HTTP 410 gone for good' });
      expect(await listAll({ account: acc, errorText: '410 GONE' })).toEqual([id]);
    });

    it('a 503 delivery_queue_unavailable that was delivered anyway keeps its own row among many in a minute', async () => {
      const w = writer({ keepPerMinute: 2 });
      const ids = Array.from({ length: 10 }, (_, i) => eventId(`dqu_${i}`));
      const dqu = { ...on, endpoint_id: 'ep_dqu' };
      await w.write(
        ids.map((id) =>
          request(id, {
            ...dqu,
            outcome: 'DELIVERY_QUEUE_UNAVAILABLE',
            reason: 'delivery queue unavailable',
            target_count: 1,
          }),
        ),
      );
      await w.write(ids.map((id) => attempt(id, 'tg_1', 1, 'delivered', dqu)));
      for (const id of ids) {
        const r = await rowOf(id);
        expect(r).toMatchObject({ outcome: 'DELIVERY_QUEUE_UNAVAILABLE', status: 'errors', aggregate: null });
        expect(r.deliveries.map((d) => d.state)).toEqual(['delivered']);
      }
      expect((await listAll({ account: acc, endpointId: 'ep_dqu' })).sort()).toEqual([...ids].sort());
    });

    it('a resend is a second delivery of the target on the same row; delivered, it turns a failed row Completed', async () => {
      const w = writer();
      const id = eventId('resent');
      const first = deliveryIdFor(id, 'tg_1');
      const again = resendDeliveryId(id, 'tg_1', resendTag(Date.now()));
      await w.write([
        request(id, { ...on, target_count: 1 }),
        attempt(id, 'tg_1', 1, 'failed', { ...on, delivery_id: first }),
      ]);
      expect(await listAll({ account: acc, status: 'errors' })).toContain(id);
      await w.write([attempt(id, 'tg_1', 1, 'delivered', { ...on, delivery_id: again })]);
      const r = await rowOf(id);
      expect(r.deliveries.map((d) => [d.delivery_id, d.state])).toEqual([
        [first, 'failed'],
        [again, 'delivered'],
      ]);
      expect([r.status, r.last_error]).toEqual(['completed', null]);
      expect(await listAll({ account: acc, status: 'errors' })).not.toContain(id);
      expect(await listAll({ account: acc, status: 'completed' })).toContain(id);
    });

    it('a payload written again (a redelivered message) keeps the first copy', async () => {
      const id = eventId('payload_again');
      const at = new Date().toISOString();
      const w = writer();
      await Promise.all([
        w.write([request(id, { ...on, received_at: at, target_count: 0 })]),
        w.writePayloads([payloadOf(id, acc, 'ep_1', at, '{"order":1}')]),
      ]);
      await w.writePayloads([payloadOf(id, acc, 'ep_1', at, '{"order":2}')]);
      expect(await log().payload(id)).toEqual({
        request: { method: 'POST', source_ip: '203.0.113.7', headers: {}, query: '' },
        payload: { content_type: 'application/json', body_base64: Buffer.from('{"order":1}').toString('base64') },
      });
    });

    it('a writer given the partition of another (resync) completes the row the other wrote; it is listed once, as it is now', async () => {
      const [a, b] = [writer(), writer()];
      const id = eventId('taken_over');
      await a.write([request(id, { ...on, target_count: 1 }), attempt(id, 'tg_1', 1, 'retrying', on)]);
      await a.settle(activityPartitionOf(acc));
      b.resync(activityPartitionOf(acc));
      await b.write([attempt(id, 'tg_1', 2, 'delivered', on)]);
      expect((await listAll({ account: acc })).filter((x) => x === id)).toHaveLength(1);
      expect(await listedRow(id)).toMatchObject({ status: 'completed' });
      expect(await listAll({ account: acc, status: 'pending' })).not.toContain(id);
    });
  });
}
