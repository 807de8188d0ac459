import { collectionsOf, sweepExpired, createActivityWriter } from '../../support/activity-log-internals';
import { must } from '@relay/client';
import type { ActivityListed, ActivityPage, operations } from '@relay/client';
import type { ActivityAttemptV1 } from '@relay/contracts';
import { runRelay } from '../../support/relay-cli';
import { testClient } from '../../support/api-client';
import { activityLine } from '../../../services/cli/src/tail';
import { startManagement } from '../management/fixture';
import type { ManagementFixture } from '../management/fixture';
import { attempt, eventId, pipelineOn, request as requestRow } from '../../../libs/activity-log/conformance/fixtures';

/**
 * GET /v1/activity on the real store: every filter of the spec's Request activity view
 * (endpoint, date window, All / Completed / Pending / Errors / Test, source IP, error text,
 * the cross-endpoint view) with cursor paging, read by key only.
 */
let fx: ManagementFixture;
const ids: Record<string, string> = {};
const endpoints: Record<string, string> = {};
let other: { accountId: string; apiKey: string };
const T0 = Date.now() - 3 * 3_600_000; // three hours ago, spread over two hours below
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

beforeAll(async () => {
  fx = await startManagement('activityapi');
  other = await fx.newAccount();
  const acc = fx.accountId;
  // the endpoint filter lists an endpoint of the caller's account only
  for (const name of ['ep_a', 'ep_b', 'ep_old']) {
    endpoints[name] = (await must(fx.client.POST('/v1/endpoints', { body: { name } }))).id;
  }
  const ep = (name: string) => endpoints[name]!;
  const { write } = pipelineOn(fx.store, { keepPerMinute: 1000 });
  const messages = [];
  const id = (label: string, minutes: number) => (ids[label] = eventId(label, at(minutes)));
  // 130 completed rows on ep_a over two hours, 20 on ep_b
  for (let i = 0; i < 150; i++) {
    const ev = id(`ok_${String(i).padStart(3, '0')}`, i * 0.8);
    const endpoint = ep(i < 130 ? 'ep_a' : 'ep_b');
    messages.push(
      requestRow(ev, {
        account_id: acc,
        endpoint_id: endpoint,
        target_count: 1,
        received_at: at(i * 0.8),
        source_ip: i % 10 === 0 ? '198.51.100.9' : '203.0.113.7',
      }),
    );
    messages.push(attempt(ev, 'tg_1', 1, 'delivered', { account_id: acc, endpoint_id: endpoint }));
  }
  messages.push(
    requestRow(id('auth', 30), {
      account_id: acc,
      endpoint_id: ep('ep_a'),
      outcome: 'AUTH_FAILED',
      reason: 'invalid bearer token',
      target_count: 0,
      received_at: at(30),
    }),
  );
  messages.push(
    requestRow(id('pending', 40), { account_id: acc, endpoint_id: ep('ep_a'), target_count: 1, received_at: at(40) }),
  );
  messages.push(
    requestRow(id('test', 50), {
      account_id: acc,
      endpoint_id: ep('ep_a'),
      target_count: 0,
      test: true,
      received_at: at(50),
    }),
  );
  messages.push(
    requestRow(id('fail', 60), { account_id: acc, endpoint_id: ep('ep_b'), target_count: 1, received_at: at(60) }),
  );
  messages.push(
    attempt(ids.fail!, 'tg_1', 1, 'failed', {
      account_id: acc,
      endpoint_id: ep('ep_b'),
      error: 'HTTP 410 Gone from receiver',
    }),
  );
  messages.push(
    requestRow(id('other', 45), {
      account_id: other.accountId,
      endpoint_id: ep('ep_a'),
      target_count: 0,
      received_at: at(45),
    }),
  );
  await write(messages);
  // a retry settles a row later: its status moves in the index through a change page
  await write([
    requestRow(id('late', 70), { account_id: acc, endpoint_id: ep('ep_b'), target_count: 1, received_at: at(70) }),
  ]);
  await write([
    attempt(ids.late!, 'tg_1', 1, 'retrying', {
      account_id: acc,
      endpoint_id: ep('ep_b'),
      error: 'connect ECONNREFUSED',
    }),
  ]);
  await write([
    attempt(ids.late!, 'tg_1', 2, 'failed', {
      account_id: acc,
      endpoint_id: ep('ep_b'),
      error: 'HTTP 500 after retries',
    }),
  ]);
});
afterAll(() => fx.close());

type ActivityQuery = NonNullable<operations['listActivity']['parameters']['query']>;

async function all(query: ActivityQuery): Promise<ActivityListed[]> {
  const rows: ActivityListed[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const page: ActivityPage = await must(
      fx.client.GET('/v1/activity', { params: { query: { ...query, limit: 40, ...(cursor ? { cursor } : {}) } } }),
    );
    rows.push(...page.data);
    cursor = page.next_cursor;
    if (!cursor) return rows;
  }
  throw new Error('paging did not end');
}

describe('Request activity filters (spec "Activity record")', () => {
  it('cross-endpoint view: every row of the account, newest hour first, each once across cursor pages', async () => {
    const rows = await all({ status: 'all' });
    expect(rows).toHaveLength(155);
    expect(new Set(rows.map((r) => r.id)).size).toBe(155);
    // newest first by hour; within an hour in the order the writer stored the rows (the late
    // row, written by a later flush, sits ahead of newer ones: docs/management-api.md)
    const hours = rows.map((r) => r.received_at.slice(0, 13));
    expect(hours).toEqual([...hours].sort().reverse());
    expect(rows.some((r) => r.id === ids.other!)).toBe(false); // another account's row
  });

  it('endpoint filter', async () => {
    expect(await all({ endpoint_id: endpoints.ep_b })).toHaveLength(22);
    expect((await all({ endpoint_id: endpoints.ep_a })).every((r) => r.endpoint_id === endpoints.ep_a)).toBe(true);
  });

  it('date window: from inclusive, to exclusive', async () => {
    const rows = await all({ from: at(30), to: at(60) });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.received_at >= at(30) && r.received_at < at(60))).toBe(true);
    expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining([ids.auth!, ids.pending!, ids.test!]));
  });

  it.each([
    ["Completed (senders' rows only: the accepted test request is in Test alone)", 'completed', 150],
    ['Pending', 'pending', 1],
    ['Errors (a rejection, a failed delivery, a retried delivery that failed later)', 'errors', 3],
    ['Test', 'test', 1],
  ] as const)('status group %s', async (_name, status, count) => {
    expect(await all({ status })).toHaveLength(count);
  });

  it("source IP: every row from the address, read from the address's bucket of the account", async () => {
    const rows = await all({ source_ip: '198.51.100.9' });
    expect(rows).toHaveLength(15);
    expect(rows.every((r) => r.source_ip === '198.51.100.9')).toBe(true);
    // the other account's row from 203.0.113.7 shares that address's bucket, never its list
    expect((await all({ source_ip: '203.0.113.7' })).some((r) => r.id === ids.other!)).toBe(false);
  });

  it("source IP with an endpoint: only that endpoint's rows from the address", async () => {
    const rows = await all({ source_ip: '198.51.100.9', endpoint_id: endpoints.ep_b });
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.endpoint_id === endpoints.ep_b)).toBe(true);
    expect(await all({ source_ip: '192.0.2.1' })).toHaveLength(0);
  });

  it('error text: a case-insensitive literal substring of the reason or the latest delivery error, within 24 hours', async () => {
    expect((await all({ error: 'GONE' })).map((r) => r.id)).toEqual([ids.fail!]);
    expect((await all({ error: 'after retries' })).map((r) => r.id)).toEqual([ids.late!]);
    expect((await all({ error: 'bearer' })).map((r) => r.id)).toEqual([ids.auth!]);
    expect(await all({ error: '.*' })).toHaveLength(0); // never a regex
    // raw: the 400 and its field errors for a window the API refuses
    const wide = await fx.api(
      'get',
      `/v1/activity?error=x&from=${encodeURIComponent(at(-3000))}&to=${encodeURIComponent(at(100))}`,
    );
    expect(wide.status).toBe(400);
    expect(wide.body.errors[0]).toMatchObject({ field: 'error', message: expect.stringContaining('24 hours') });
  });

  it('a bad cursor or filter is a 400 naming the field', async () => {
    // raw: values the types would not let a test write (a status that is none, a limit of 0)
    const res = await fx.api('get', '/v1/activity?cursor=nonsense&status=sometimes&limit=0');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['cursor', 'limit', 'status']);
  });

  it('a single row by event id, only for its own account', async () => {
    const own = await must(fx.client.GET('/v1/activity/{eventId}', { params: { path: { eventId: ids.fail! } } }));
    expect(own).toMatchObject({
      id: ids.fail!,
      status: 'errors',
      last_error: 'HTTP 410 Gone from receiver',
      deliveries: [{ state: 'failed' }],
    });
    const read = (eventId: string) => fx.client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } });
    expect([(await read('evt_not_a_time_id')).response.status, (await read(ids.other!)).response.status]).toEqual([
      404, 404,
    ]);
  });

  it('a sparse filter ends a page early with a cursor, and following the cursors finds every match', async () => {
    const page = await must(
      fx.client.GET('/v1/activity', { params: { query: { source_ip: '198.51.100.9', limit: 200 } } }),
    );
    expect(page.data.length).toBeLessThanOrEqual(15);
    expect(await all({ source_ip: '198.51.100.9' })).toHaveLength(15);
  });
});

describe('status groups as rows move between them (each group is listed from its own pages)', () => {
  it('a row leaves Pending when settled and Errors when a redriven delivery succeeds; Test rows are in Test alone, with their latest status', async () => {
    const fresh = await fx.newAccount();
    const acc = fresh.accountId;
    const list = async (status: ActivityQuery['status']) => {
      const page = await must(fx.clientAs(fresh.apiKey).GET('/v1/activity', { params: { query: { status } } }));
      return page.data.map((r) => `${r.id}:${r.status}`).sort();
    };
    const { write } = pipelineOn(fx.store);
    const [settled, redriven, tested] = ['settled', 'redriven', 'tested'].map((l) => eventId(l));
    const on = { account_id: acc, endpoint_id: 'ep_moves' };
    await write([
      requestRow(settled!, { ...on, target_count: 1 }),
      requestRow(redriven!, { ...on, target_count: 1 }),
      requestRow(tested!, { ...on, target_count: 1, test: true }),
    ]);
    expect(await list('pending')).toEqual([`${redriven}:pending`, `${settled}:pending`].sort());
    expect(await list('test')).toEqual([`${tested}:pending`]);

    await write([
      attempt(settled!, 'tg_1', 1, 'delivered', on),
      attempt(redriven!, 'tg_1', 1, 'failed', on),
      attempt(tested!, 'tg_1', 1, 'failed', on),
    ]);
    expect(await list('pending')).toEqual([]);
    expect(await list('errors')).toEqual([`${redriven}:errors`]);
    expect(await list('test')).toEqual([`${tested}:errors`]);
    expect(await list('all')).toEqual([`${redriven}:errors`, `${settled}:completed`, `${tested}:errors`].sort());

    // a dead-lettered delivery redriven (npm run redrive) and delivered: the row leaves Errors
    await write([attempt(redriven!, 'tg_1', 2, 'delivered', on)]);
    expect(await list('errors')).toEqual([]);
    expect(await list('completed')).toEqual([`${redriven}:completed`, `${settled}:completed`].sort());
  });
});

describe('error-text search reads the rows that have a text (reason or delivery error)', () => {
  it('finds a row whose first error came with a later retry, while it is still Pending', async () => {
    const fresh = await fx.newAccount();
    const search = async (error: string) => {
      const page = await must(fx.clientAs(fresh.apiKey).GET('/v1/activity', { params: { query: { error } } }));
      return page.data.map((r) => `${r.id}:${r.status}`);
    };
    const { write } = pipelineOn(fx.store);
    const on = { account_id: fresh.accountId, endpoint_id: 'ep_texts' };
    const id = eventId('retried');
    await write([requestRow(id, { ...on, target_count: 1 })]);
    expect(await search('ETIMEDOUT')).toEqual([]);
    await write([attempt(id, 'tg_1', 1, 'retrying', { ...on, error: 'connect ETIMEDOUT 10.9.8.7:443' })]);
    expect(await search('etimedout')).toEqual([`${id}:pending`]);
    await write([attempt(id, 'tg_1', 2, 'delivered', on)]);
    // the latest delivery error is still the timeout (a success has none): still found, now Completed
    expect(await search('ETIMEDOUT')).toEqual([`${id}:completed`]);
  });
});

describe('retention', () => {
  it('drops the partitions of expired hours and nothing else', async () => {
    const writer = createActivityWriter(collectionsOf(fx.store));
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const recent = new Date().toISOString();
    const [o1, o2, n1] = [eventId('old_1', old), eventId('old_2', old), eventId('new', recent)];
    const ev = (id: string, received_at: string) => ({
      event_id: id,
      request: requestRow(id, {
        account_id: fx.accountId,
        endpoint_id: endpoints.ep_old!,
        target_count: 0,
        received_at,
      }),
      attempts: [],
      tokens: [],
      oldest_ms: 0,
    });
    await writer.write({ events: [ev(o1, old), ev(o2, old), ev(n1, recent)], folds: [] });
    expect(await collectionsOf(fx.store).row(o1)).not.toBeNull();
    const oldHour = old.slice(0, 13).replace(/[-T]/g, '');
    // an index collection of an earlier layout (endpoint pages apart) expires like the others
    await fx.store.connection
      .db!.collection<{ _id: string }>(`activity_ixe_${oldHour}`)
      .insertOne({ _id: 'e:ep_old|0' });
    const swept = await sweepExpired(collectionsOf(fx.store), Date.now(), 30 * 86_400_000);
    // the hour's rows and index pages, and the earlier layout's collection
    expect(swept.dropped).toEqual(
      expect.arrayContaining([`activity_rows_${oldHour}`, `activity_ix_${oldHour}`, `activity_ixe_${oldHour}`]),
    );
    expect(
      swept.dropped.every((name) => name.includes(oldHour) || name.includes(old.slice(0, 10).replace(/-/g, ''))),
    ).toBe(true);
    expect(await collectionsOf(fx.store).row(o1)).toBeNull();
    expect(await collectionsOf(fx.store).row(o2)).toBeNull();
    expect(await collectionsOf(fx.store).row(n1)).not.toBeNull();
    expect(await collectionsOf(fx.store).row(ids.ok_000!)).not.toBeNull();
    expect(await all({ endpoint_id: endpoints.ep_old })).toEqual([expect.objectContaining({ id: n1 })]);
    expect((await all({ status: 'all' })).length).toBe(156); // the 155 rows above and the new one
  });
});

/** One more row on `endpoint` at `minutes`, its attempts to tg_1, tg_2, … with the fields given. */
async function writeRow(label: string, minutes: number, endpoint: string, attempts: Partial<ActivityAttemptV1>[]) {
  const { write } = pipelineOn(fx.store, { keepPerMinute: 1000 });
  const ev = eventId(label, at(minutes));
  const where = { account_id: fx.accountId, endpoint_id: endpoint };
  await write([
    requestRow(ev, { ...where, target_count: attempts.length, received_at: at(minutes) }),
    ...attempts.map((a, i) => attempt(ev, `tg_${i + 1}`, 1, a.state ?? 'delivered', { ...where, ...a })),
  ]);
  return ev;
}

describe('an attempt whose request was sent again (a reused connection reset before any answer)', () => {
  it('shows `resends`, so every request the target got is accounted for; an attempt without one has none', async () => {
    const ev = await writeRow('resent', 80, endpoints.ep_a!, [{ resends: 1 }, {}]);
    const row = await must(fx.client.GET('/v1/activity/{eventId}', { params: { path: { eventId: ev } } }));
    expect(row.deliveries.map((d) => [d.target_id, d.attempts.map((a) => a.resends)])).toEqual([
      ['tg_1', [1]],
      ['tg_2', [undefined]],
    ]);
  });
});

describe("a row whose deliveries reached the log before the gateway's record of its request", () => {
  it('is listed, as the document says, with method, source IP and outcome null until the record fills them in', async () => {
    // the typed client that checks every response against the OpenAPI document
    const checked = testClient(fx.baseUrl, fx.apiKey);
    const { write } = pipelineOn(fx.store);
    const where = { account_id: fx.accountId, endpoint_id: endpoints.ep_b! };
    const ev = eventId('record_late', at(100));
    await write([attempt(ev, 'tg_1', 1, 'delivered', { ...where, attempted_at: at(100.5) })]);
    const listed = async () =>
      (
        await must(checked.GET('/v1/activity', { params: { query: { endpoint_id: where.endpoint_id, limit: 200 } } }))
      ).data.find((r) => r.id === ev);
    // pending: how many targets the event has is in the record
    expect(await listed()).toMatchObject({ method: null, source_ip: null, outcome: null, status: 'pending' });
    expect(activityLine((await listed())!)).toContain(`${ev}  ${where.endpoint_id}  -          pending`);
    const early = await must(checked.GET('/v1/activity/{eventId}', { params: { path: { eventId: ev } } }));
    expect(early).toMatchObject({ outcome: null, received_at: at(100.5) });
    expect(early.deliveries.map((d) => d.state)).toEqual(['delivered']);

    await write([requestRow(ev, { ...where, target_count: 1, received_at: at(100) })]);
    expect(await listed()).toMatchObject({
      method: 'POST',
      outcome: 'ACCEPTED',
      status: 'completed',
      received_at: at(100),
    });
  });
});

describe('relay activity tail (the CLI) on a row with a target’s answer holding terminal escapes', () => {
  it('prints the error with its control characters escaped, never as escape sequences', async () => {
    const ep = endpoints.ep_b!;
    const ev = await writeRow('ansi', 90, ep, [{ state: 'failed', error: 'HTTP 500: err\x1b[31mRED\x1b[0m' }]);
    const { code, stdout } = await runRelay(
      [
        '--api-url',
        fx.baseUrl,
        '--api-key',
        fx.apiKey,
        'activity',
        'tail',
        '--endpoint',
        ep,
        '--limit',
        '200',
        '--no-follow',
      ],
      {},
    );
    expect(code).toBe(0);
    const line = stdout.split('\n').find((l) => l.includes(ev))!;
    expect(line).toContain('HTTP 500: err\\u001B[31mRED\\u001B[0m');
    expect(stdout).not.toContain('\x1b');
  });
});
