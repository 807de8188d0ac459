import {
  collectionsOf,
  PageCounts,
  accountScope,
  endpointScope,
  listIndexed,
  createActivityWriter,
} from '../../../test/support/activity-log-internals';
import type { IndexEntry } from '../../../test/support/activity-log-internals';
import { attempt, eventId, fileStore, pipelineOn, request, row } from './fixtures';

const store = fileStore('activity');

/** Every entry of a scope through the index, newest first (what the activity API lists). */
async function listed(scope: string): Promise<IndexEntry[]> {
  const out: IndexEntry[] = [];
  let cursor = null;
  for (let i = 0; i < 50; i++) {
    const page: Awaited<ReturnType<typeof listIndexed>> = await listIndexed(collectionsOf(store()), {
      scope,
      fromMs: Date.now() - 86_400_000,
      toMs: Date.now() + 86_400_000,
      cursor,
      limit: 200,
      matches: () => true,
      budget: 10_000,
      counts: new PageCounts(),
    });
    out.push(...page.entries);
    if (!page.next) return out;
    cursor = page.next;
  }
  throw new Error('listing did not end');
}

describe('activity-writer on the real MongoDB-wire store', () => {
  it('keeps one row per request with time, endpoint, outcome, reason, method and source IP', async () => {
    const at = '2026-11-21T05:00:00.000Z';
    const id = eventId('a', at);
    await createActivityWriter(collectionsOf(store())).write({
      events: [
        {
          event_id: id,
          request: request(id, {
            outcome: 'AUTH_FAILED',
            reason: 'missing Authorization header',
            target_count: 0,
            received_at: at,
          }),
          attempts: [],
          tokens: [],
          oldest_ms: 0,
        },
      ],
      folds: [],
    });
    expect(await row(store(), id)).toMatchObject({
      id,
      endpoint_id: 'ep_1',
      outcome: 'AUTH_FAILED',
      reason: 'missing Authorization header',
      method: 'POST',
      source_ip: '203.0.113.7',
      received_at: new Date(at),
      status: 'errors',
      deliveries: [],
      aggregate: null,
    });
  });

  it('writes a request and the first attempts that follow within the hold window as one insert', async () => {
    const { write, flushes } = pipelineOn(store(), { holdMs: 5000 });
    const id = eventId('hold');
    await write([request(id), attempt(id, 'tg_1', 1, 'delivered'), attempt(id, 'tg_2', 1, 'delivered')]);
    expect(flushes).toEqual([expect.objectContaining({ messages: 3, inserted: 1, updated: 0 })]);
    expect((await row(store(), id))!.status).toBe('completed');
  });

  it('status groups after retries: Pending while a delivery retries, then Completed; later attempts are inserted beside the row, never an update', async () => {
    const { write, flushes } = pipelineOn(store());
    const id = eventId('b');
    await write([request(id)]);
    await write([attempt(id, 'tg_1', 1, 'retrying')]);
    expect((await row(store(), id))!.status).toBe('pending');
    await write([attempt(id, 'tg_1', 2, 'delivered'), attempt(id, 'tg_2', 1, 'delivered')]);
    const done = (await row(store(), id))!;
    expect(done.status).toBe('completed');
    expect(done.deliveries.map((d) => [d.target_id, d.state, d.attempts.map((a) => a.attempt)])).toEqual([
      ['tg_1', 'delivered', [1, 2]],
      ['tg_2', 'delivered', [1]],
    ]);
    expect(done.deliveries[0]!.attempts[0]).toMatchObject({ state: 'retrying', status_code: 503, error: 'HTTP 503' });
    expect(flushes.map((f) => [f.inserted, f.updated, f.late])).toEqual([
      [1, 0, 0],
      [0, 0, 1],
      [0, 0, 2],
    ]);
    // read back by a writer that never saw it (a restart): the late attempts are found beside the row
    expect((await collectionsOf(store()).rowWithLate(id))!.late).toBe(3);
    // the list follows the row's status through change pages
    expect((await listed(endpointScope('ep_1'))).find((r) => r.event_id === id)!.status).toBe('completed');
  });

  it('the list follows the next attempt of a retrying delivery: set by the first failure, moved by a retry that fails again with the same error, gone once delivered', async () => {
    const { write } = pipelineOn(store());
    const id = eventId('retrying');
    const next = (ms: number) => new Date(Date.now() + ms).toISOString();
    const listedRow = async () => (await listed(endpointScope('ep_1'))).find((r) => r.event_id === id)!;
    const [first, second] = [next(60_000), next(600_000)];
    await write([request(id, { target_count: 1 }), attempt(id, 'tg_1', 1, 'retrying', { next_attempt_at: first })]);
    expect(await listedRow()).toMatchObject({ status: 'pending', retry_ms: Date.parse(first) });
    // same status, same error: only the next attempt moved, and the list follows it (a change page)
    await write([attempt(id, 'tg_1', 2, 'retrying', { next_attempt_at: second })]);
    expect(await listedRow()).toMatchObject({
      status: 'pending',
      last_error: 'HTTP 503',
      retry_ms: Date.parse(second),
    });
    await write([attempt(id, 'tg_1', 3, 'delivered')]);
    expect(await listedRow()).toMatchObject({ status: 'completed', retry_ms: null });
  });

  it('a request never tried yet lists no next attempt: Pending, not retrying', async () => {
    const { write } = pipelineOn(store());
    const id = eventId('untried');
    await write([request(id, { target_count: 1 })]);
    expect((await listed(endpointScope('ep_1'))).find((r) => r.event_id === id)).toMatchObject({
      status: 'pending',
      retry_ms: null,
    });
  });

  it('a restarted writer (no memory of the row) settles a further attempt after the ones already beside the row', async () => {
    const id = eventId('restart');
    await pipelineOn(store()).write([request(id, { target_count: 1 })]);
    await pipelineOn(store()).write([attempt(id, 'tg_1', 1, 'retrying')]); // a second writer: reads the row
    await pipelineOn(store()).write([attempt(id, 'tg_1', 2, 'retrying')]); // a third: reads row + 1 late attempt
    await pipelineOn(store()).write([attempt(id, 'tg_1', 3, 'delivered')]);
    const r = (await collectionsOf(store()).rowWithLate(id))!;
    expect(r.late).toBe(3);
    expect(r.row.status).toBe('completed');
    expect((await row(store(), id))!.deliveries[0]!.attempts.map((a) => [a.attempt, a.state])).toEqual([
      [1, 'retrying'],
      [2, 'retrying'],
      [3, 'delivered'],
    ]);
  });

  it('an Errors row when a delivery failed for good, with the latest error kept for the error-text filter', async () => {
    const { write } = pipelineOn(store());
    const id = eventId('e');
    await write([
      request(id, { target_count: 1 }),
      attempt(id, 'tg_1', 1, 'retrying', { error: 'connect ECONNREFUSED' }),
    ]);
    await write([attempt(id, 'tg_1', 2, 'failed', { error: 'HTTP 410' })]);
    expect(await row(store(), id)).toMatchObject({ status: 'errors', last_error: 'HTTP 410' });
    expect((await listed(accountScope('acc_1'))).find((r) => r.event_id === id)).toMatchObject({
      status: 'errors',
      last_error: 'HTTP 410',
    });
  });

  it('lands the same row whatever the arrival order, and redelivered messages change nothing', async () => {
    const { write } = pipelineOn(store());
    const id = eventId('c');
    const first = attempt(id, 'tg_1', 1, 'failed');
    await write([first]);
    expect((await row(store(), id))!.status).toBe('pending'); // the request row has not arrived yet
    await write([request(id, { target_count: 1 }), first]); // the attempt again: a redelivery
    await write([request(id, { target_count: 1 })]); // and the request again
    const r = (await row(store(), id))!;
    expect(r.status).toBe('errors');
    expect(r.deliveries[0]!.attempts).toHaveLength(1);
    // entered in the index several times, listed once, as it is now
    const entries = (await listed(accountScope('acc_1'))).filter((x) => x.event_id === id);
    expect(entries).toEqual([expect.objectContaining({ status: 'errors', outcome: 'ACCEPTED', method: 'POST' })]);
  });

  it('a flood of 1,000 bad-token requests leaves a bounded number of rows with the right counts', async () => {
    const { write } = pipelineOn(store(), { keepPerMinute: 10 });
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const flood = Array.from({ length: 1000 }, (_, i) => {
      const at = new Date(minute + (i % 50) * 1000).toISOString();
      return request(eventId(`flood_${i}`, at), {
        endpoint_id: 'ep_flood',
        outcome: 'AUTH_FAILED',
        reason: 'invalid bearer token',
        target_count: 0,
        source_ip: `198.51.100.${i % 250}`,
        received_at: at,
      });
    });
    for (let i = 0; i < flood.length; i += 250) await write(flood.slice(i, i + 250)); // several flushes, as under load
    const entries = await listed(endpointScope('ep_flood'));
    const own = entries.filter((r) => !r.aggregated);
    const aggregated = entries.filter((r) => r.aggregated);
    expect(own).toHaveLength(10);
    expect(own.every((r) => r.source_ip !== null)).toBe(true);
    expect(aggregated).toHaveLength(1);
    expect(aggregated[0]).toMatchObject({
      outcome: 'AUTH_FAILED',
      reason: 'invalid bearer token',
      source_ip: null,
      status: 'errors',
    });
    const agg = (await row(store(), aggregated[0]!.event_id))!;
    expect(agg).toMatchObject({ source_ip: null, aggregate: { count: 990 } });
    expect(new Date(agg.aggregate!.first_seen).getTime()).toBeGreaterThanOrEqual(minute);
    expect(new Date(agg.aggregate!.last_seen).getTime()).toBeLessThan(minute + 60_000);
  });

  it('never writes over an index page: a writer whose page numbers are behind (a restart, another process) probes again', async () => {
    const [w1, w2] = [createActivityWriter(collectionsOf(store())), createActivityWriter(collectionsOf(store()))];
    const ids = ['p1', 'p2', 'p3'].map((l) => eventId(l));
    const ev = (id: string) => ({
      event_id: id,
      request: request(id, { endpoint_id: 'ep_pages', target_count: 0 }),
      attempts: [],
      tokens: [],
      oldest_ms: 0,
    });
    await w1.write({ events: [ev(ids[0]!)], folds: [] }); // w1: page 0, remembers 1
    await w2.write({ events: [ev(ids[1]!)], folds: [] }); // w2 probes: page 1
    await w1.write({ events: [ev(ids[2]!)], folds: [] }); // w1 tries 1, finds it taken, probes: page 2
    expect((await listed(endpointScope('ep_pages'))).map((e) => e.event_id)).toEqual([ids[2], ids[1], ids[0]]);
  });

  it('settles more than 100 rows in one flush (FerretDB never answers an update command of 100+ statements)', async () => {
    const { write } = pipelineOn(store());
    const ids = Array.from({ length: 120 }, (_, i) => eventId(`many_${i}`));
    await write(ids.map((id) => request(id, { target_count: 1 })));
    await write(ids.map((id) => attempt(id, 'tg_1', 1, 'delivered')));
    const rows = await Promise.all(ids.map((id) => row(store(), id)));
    expect(rows.filter((r) => r?.status === 'completed')).toHaveLength(120);
  });

  it('a writer restarted after a crash reads the redelivered rows it finds already written in a few queries, and writes none of them again', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => eventId(`redelivered_${i}`));
    const first = ids.flatMap((id) => [
      request(id, { endpoint_id: 'ep_redelivered', target_count: 1 }),
      attempt(id, 'tg_1', 1, 'retrying'),
    ]);
    const retries = ids.slice(0, 50).map((id) => attempt(id, 'tg_1', 2, 'delivered'));
    await pipelineOn(store(), { holdMs: 5000 }).write(first);
    await pipelineOn(store()).write(retries);

    // the killed writer's messages come back to a new one, with nothing of them remembered
    const one = jest.spyOn(collectionsOf(store()), 'rowWithLate');
    const many = jest.spyOn(collectionsOf(store()), 'rowsWithLate');
    const again = pipelineOn(store(), { holdMs: 5000 });
    await again.write([...first, ...retries]);
    expect(again.flushes.map((f) => [f.inserted, f.updated, f.late])).toEqual([[0, 0, 0]]);
    expect(one).not.toHaveBeenCalled();
    expect(many.mock.calls.length).toBeLessThanOrEqual(2); // one per hour the flush touches
    one.mockRestore();
    many.mockRestore();

    const rows = await Promise.all(ids.map((id) => row(store(), id)));
    expect(rows.slice(0, 50).every((r) => r!.status === 'completed' && r!.deliveries[0]!.attempts.length === 2)).toBe(
      true,
    );
    expect(rows.slice(50).every((r) => r!.status === 'pending' && r!.deliveries[0]!.attempts.length === 1)).toBe(true);
    // indexed again (the killed flush may have stopped before its index pages); one list call shows each row once, as it is now
    const { entries } = await listIndexed(collectionsOf(store()), {
      scope: endpointScope('ep_redelivered'),
      fromMs: Date.now() - 86_400_000,
      toMs: Date.now() + 86_400_000,
      cursor: null,
      limit: 1000,
      matches: () => true,
      budget: 10_000,
      counts: new PageCounts(),
    });
    expect(entries.map((e) => e.event_id).sort()).toEqual([...ids].sort());
    expect(entries.filter((e) => e.status === 'completed')).toHaveLength(50);
  });

  it('a 503 delivery_queue_unavailable that was delivered anyway keeps its own row, which shows the delivery, even among many in a minute', async () => {
    const { write } = pipelineOn(store(), { keepPerMinute: 2 });
    const ids = Array.from({ length: 10 }, (_, i) => eventId(`dqu_${i}`));
    await write(
      ids.map((id) =>
        request(id, {
          endpoint_id: 'ep_dqu',
          outcome: 'DELIVERY_QUEUE_UNAVAILABLE',
          reason: 'delivery queue unavailable',
          target_count: 1,
        }),
      ),
    );
    await write(ids.map((id) => attempt(id, 'tg_1', 1, 'delivered', { endpoint_id: 'ep_dqu' })));
    for (const r of await Promise.all(ids.map((id) => row(store(), id)))) {
      expect(r).toMatchObject({ outcome: 'DELIVERY_QUEUE_UNAVAILABLE', status: 'errors', aggregate: null });
      expect(r!.deliveries.map((d) => d.state)).toEqual(['delivered']);
    }
    const entries = await listed(endpointScope('ep_dqu'));
    expect(entries.filter((e) => e.aggregated)).toHaveLength(0);
    expect(entries).toHaveLength(10);
  });
});
