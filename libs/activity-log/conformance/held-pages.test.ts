import {
  collectionsOf,
  PageCounts,
  accountScope,
  endpointScope,
  groupScope,
  hourOf,
  ipScope,
  listIndexed,
  createActivityWriter,
} from '../../../test/support/activity-log-internals';
import type { Scope, ActivityWriter } from '../../../test/support/activity-log-internals';
import { attempt, eventId, fileStore, request, row } from './fixtures';

/**
 * ACTIVITY_INDEX_WAIT_MS: an endpoint's, a status group's and a source-IP bucket's index entries
 * wait to share one page with later flushes' (docs/architecture.md "Holding sparse pages"), on
 * the real store. The account's are written with every flush.
 */
const store = fileStore('heldpages');
const WAIT_MS = 10_000;

/** ids of what a scope lists over the hour of `t0`, newest first */
async function listed(scope: Scope, t0: number): Promise<string[]> {
  const page = await listIndexed(collectionsOf(store()), {
    scope,
    fromMs: t0 - 3_600_000,
    toMs: t0 + 3_600_000,
    cursor: null,
    limit: 100,
    matches: () => true,
    budget: 1000,
    counts: new PageCounts(),
  });
  return page.entries.map((e) => e.event_id);
}

/** how many entry pages a scope has in the hour of `t0` */
async function pagesOf(scope: Scope, t0: number): Promise<number> {
  const coll = collectionsOf(store()).index(hourOf(t0));
  let n = 0;
  while (await coll.get(`${scope}|${n}`)) n += 1;
  return n;
}

function flushOf(writer: ActivityWriter, endpoint: string) {
  return async (label: string, at: number, flush: number, over: Parameters<typeof request>[1] = {}) => {
    const id = eventId(label, at);
    await writer.write(
      {
        events: [
          {
            event_id: id,
            request: request(id, {
              endpoint_id: endpoint,
              received_at: new Date(at).toISOString(),
              target_count: 0,
              ...over,
            }),
            attempts: [],
            tokens: [],
            oldest_ms: at,
          },
        ],
        folds: [],
      },
      { now: at, flush },
    );
    return id;
  };
}

describe('held index pages (ACTIVITY_INDEX_WAIT_MS) on the real store', () => {
  it("holds an endpoint's entries across flushes and writes them as one page once the oldest waited the full time; the account lists every row at once", async () => {
    const t0 = Date.parse('2026-11-22T10:00:10.000Z');
    const writer = createActivityWriter(collectionsOf(store()), { indexWaitMs: WAIT_MS });
    const flush = flushOf(writer, 'ep_held');
    const first = await flush('h1', t0, 1);
    const second = await flush('h2', t0 + 4_000, 2);
    // the rows are written and the account lists them; the endpoint's entries wait
    expect((await row(store(), first))!.endpoint_id).toBe('ep_held');
    expect(await listed(accountScope('acc_1'), t0)).toEqual(expect.arrayContaining([second, first]));
    expect(await listed(endpointScope('ep_held'), t0)).toEqual([]);
    expect(writer.heldSince()).toBe(1);

    const third = await flush('h3', t0 + WAIT_MS, 3);
    expect(await listed(endpointScope('ep_held'), t0)).toEqual([third, second, first]);
    expect(await pagesOf(endpointScope('ep_held'), t0)).toBe(1);
    expect(writer.heldSince()).toBeNull();
  });

  it("past the wait a page is written once it is worth a read (8 entries); a rare scope's waits up to the longest wait", async () => {
    const t0 = Date.parse('2026-11-22T10:30:10.000Z');
    const writer = createActivityWriter(collectionsOf(store()), { indexWaitMs: WAIT_MS, indexMaxWaitMs: 60_000 });
    const busy = flushOf(writer, 'ep_busy');
    const rare = flushOf(writer, 'ep_rare');
    const rareId = await rare('rare', t0, 1);
    const busyIds: string[] = [];
    for (let k = 0; k < 7; k++) busyIds.push(await busy(`busy${k}`, t0 + k * 2_000, k + 2));
    // 12 s: both waited the 10 s, neither has 8 entries
    expect(await listed(endpointScope('ep_busy'), t0)).toEqual([]);
    busyIds.push(await busy('busy7', t0 + 14_000, 9));
    expect(await listed(endpointScope('ep_busy'), t0)).toEqual([...busyIds].reverse());
    expect(await listed(endpointScope('ep_rare'), t0)).toEqual([]);
    await busy('busy8', t0 + 60_000, 10);
    expect(await listed(endpointScope('ep_rare'), t0)).toEqual([rareId]);
  });

  it("holds status groups and source-IP buckets too, and writes a held scope at once when it has a page's worth", async () => {
    const t0 = Date.parse('2026-11-22T11:00:10.000Z');
    const writer = createActivityWriter(collectionsOf(store()), { indexWaitMs: 60_000, indexPageEntries: 3 });
    const flush = flushOf(writer, 'ep_full');
    const failed = { outcome: 'AUTH_FAILED' as const, reason: 'bad token', source_ip: '198.51.100.9' };
    const ids = [await flush('f1', t0, 1, failed), await flush('f2', t0 + 1, 2, failed)];
    const errors = groupScope(endpointScope('ep_full'), 'errors');
    const bucket = ipScope(accountScope('acc_1'), '198.51.100.9');
    expect(await listed(errors, t0)).toEqual([]);
    expect(await listed(bucket, t0)).toEqual([]);
    ids.push(await flush('f3', t0 + 2, 3, failed));
    // three entries: a page's worth, written without waiting a minute
    expect(await listed(errors, t0)).toEqual([...ids].reverse());
    expect(await listed(endpointScope('ep_full'), t0)).toEqual([...ids].reverse());
    expect((await listed(bucket, t0)).filter((id) => ids.includes(id))).toEqual([...ids].reverse());
    expect(await pagesOf(errors, t0)).toBe(1);
  });

  it("a status change waits with its scope's entries and lands in the same flush of pages: the list never shows a stale status for long", async () => {
    const t0 = Date.parse('2026-11-22T12:00:10.000Z');
    const writer = createActivityWriter(collectionsOf(store()), { indexWaitMs: WAIT_MS });
    const id = eventId('moved', t0);
    await writer.write(
      {
        events: [
          {
            event_id: id,
            request: request(id, { endpoint_id: 'ep_moved', received_at: new Date(t0).toISOString(), target_count: 1 }),
            attempts: [attempt(id, 'tg_1', 1, 'retrying', { endpoint_id: 'ep_moved' })],
            tokens: [],
            oldest_ms: t0,
          },
        ],
        folds: [],
      },
      { now: t0, flush: 1 },
    );
    await writer.write(
      {
        events: [
          {
            event_id: id,
            request: null,
            attempts: [attempt(id, 'tg_1', 2, 'delivered', { endpoint_id: 'ep_moved' })],
            tokens: [],
            oldest_ms: t0,
          },
        ],
        folds: [],
      },
      { now: t0 + 1_000, flush: 2 },
    );
    expect(await listed(endpointScope('ep_moved'), t0)).toEqual([]);
    await writer.writeHeld({ now: t0 + 2_000, flush: 2 });
    const page = await listIndexed(collectionsOf(store()), {
      scope: endpointScope('ep_moved'),
      fromMs: t0 - 60_000,
      toMs: t0 + 60_000,
      cursor: null,
      limit: 10,
      matches: () => true,
      budget: 100,
      counts: new PageCounts(),
    });
    expect(page.entries.map((e) => [e.event_id, e.status])).toEqual([[id, 'completed']]);
    // it waited in Pending and left it: the Pending group lists its entry with the change applied
    const pending = await listIndexed(collectionsOf(store()), {
      scope: groupScope(endpointScope('ep_moved'), 'pending'),
      fromMs: t0 - 60_000,
      toMs: t0 + 60_000,
      cursor: null,
      limit: 10,
      matches: (e) => e.status === 'pending',
      budget: 100,
      counts: new PageCounts(),
    });
    expect(pending.entries).toEqual([]);
    expect(writer.heldSince()).toBeNull();
  });

  it('after a failed write the writer forgets what it held (the pipeline fails those flushes, and their redelivery writes them again)', async () => {
    const t0 = Date.parse('2026-11-22T13:00:10.000Z');
    const writer = createActivityWriter(collectionsOf(store()), { indexWaitMs: WAIT_MS });
    const flush = flushOf(writer, 'ep_reset');
    const id = await flush('r1', t0, 1);
    expect(writer.heldSince()).toBe(1);
    writer.reset();
    expect(writer.heldSince()).toBeNull();
    // the redelivered request: its row is there already, so it is read back and indexed again
    await writer.write(
      {
        events: [
          {
            event_id: id,
            request: request(id, { endpoint_id: 'ep_reset', received_at: new Date(t0).toISOString(), target_count: 0 }),
            attempts: [],
            tokens: [],
            oldest_ms: t0,
          },
        ],
        folds: [],
      },
      { now: t0 + 1_000, flush: 2, all: true },
    );
    expect(await listed(endpointScope('ep_reset'), t0)).toEqual([id]);
  });
});

describe('page counts in the day directory, once an hour is behind the writer', () => {
  const dir = (scope: Scope) => collectionsOf(store()).dir('2026-11-22').get(scope);
  const list = (scope: Scope, t0: number, counts = new PageCounts()) =>
    listIndexed(collectionsOf(store()), {
      scope,
      fromMs: t0 - 60_000,
      toMs: t0 + 3_600_000,
      cursor: null,
      limit: 100,
      matches: () => true,
      budget: 1000,
      counts,
    });

  it('records how many entry and change pages each scope has in an hour it left; a reader takes them as they are, with no read to confirm or probe', async () => {
    const t0 = Date.parse('2026-11-22T14:00:10.000Z');
    const writer = createActivityWriter(collectionsOf(store()), { indexWaitMs: WAIT_MS });
    const flush = flushOf(writer, 'ep_count');
    const ids: string[] = [];
    // five flushes ten minutes apart: each finds the entry before it held past the wait, so
    // the endpoint gets pages {c0, c1}, {c2, c3} and, written when the writer moves on, {c4}
    for (let k = 0; k < 5; k++) ids.push(await flush(`c${k}`, t0 + k * 600_000, k + 1));
    await writer.writeHeld({ now: t0 + 3_000_000, flush: 5 });
    expect((await dir(endpointScope('ep_count')))?.page_count).toBeUndefined();

    // the next hour, past the wait and the settling minute: the counts are recorded, the change
    // pages' too (none: the writer probes the count it does not know)
    await writer.writeHeld({ now: Date.parse('2026-11-22T15:01:30.000Z'), flush: 5 });
    expect(await dir(endpointScope('ep_count'))).toMatchObject({
      from: 14,
      page_count: { '14': 3 },
      change_count: { '14': 0 },
    });

    // a cold reader: 1 directory read and the 3 pages, and in hour 15 (the window reaches it;
    // the directory lists every hour from 14 on, and 15 is not recorded yet) its page 0 and
    // change page 0, both missing
    const cold = await list(endpointScope('ep_count'), t0);
    expect(cold.entries.map((e) => e.event_id)).toEqual([...ids].reverse());
    expect(cold.reads).toBe(6);
  });

  it('a page written into that hour later (a late row, a status change) raises the count before it goes in, so readers list it', async () => {
    const t0 = Date.parse('2026-11-22T16:00:10.000Z');
    const writer = createActivityWriter(collectionsOf(store()), { indexWaitMs: WAIT_MS });
    const flush = flushOf(writer, 'ep_late');
    const first = await flush('l0', t0, 1, { target_count: 1 });
    await writer.writeHeld({ now: Date.parse('2026-11-22T17:01:30.000Z'), flush: 1 });
    expect(await dir(endpointScope('ep_late'))).toMatchObject({ page_count: { '16': 1 }, change_count: { '16': 0 } });

    // a row of 16:58 arriving at 17:02, and the first row's delivery failing for good
    const late = await flush('l1', t0 + 3_500_000, 2);
    const failed = attempt(first, 'tg_1', 1, 'failed', {
      endpoint_id: 'ep_late',
      attempted_at: '2026-11-22T17:02:00.000Z',
    });
    await writer.write(
      { events: [{ event_id: first, request: null, attempts: [failed], tokens: [], oldest_ms: t0 }], folds: [] },
      { now: Date.parse('2026-11-22T17:02:00.000Z'), flush: 3 },
    );
    await writer.writeHeld({ now: Date.parse('2026-11-22T17:02:00.000Z'), flush: 3 });
    expect(await dir(endpointScope('ep_late'))).toMatchObject({ page_count: { '16': 2 }, change_count: { '16': 1 } });

    const page = await list(endpointScope('ep_late'), t0);
    expect(page.entries.map((e) => [e.event_id, e.status])).toEqual([
      [late, 'completed'],
      [first, 'errors'],
    ]);
    // 1 directory read, 2 pages, 1 change page; hour 17 (not recorded yet): page 0 and change page 0, missing
    expect(page.reads).toBe(6);

    // a writer started since (a new process) knows nothing of what was recorded: an hour that
    // old may have counts, so it raises them too
    const restarted = createActivityWriter(collectionsOf(store()), { indexWaitMs: WAIT_MS });
    const later = eventId('l2', t0 + 3_550_000);
    const at = Date.parse('2026-11-22T17:05:00.000Z');
    await restarted.write(
      {
        events: [
          {
            event_id: later,
            request: request(later, {
              endpoint_id: 'ep_late',
              received_at: new Date(t0 + 3_550_000).toISOString(),
              target_count: 0,
            }),
            attempts: [],
            tokens: [],
            oldest_ms: at,
          },
        ],
        folds: [],
      },
      { now: at, flush: 1, all: true },
    );
    expect(await dir(endpointScope('ep_late'))).toMatchObject({ page_count: { '16': 3 }, change_count: { '16': 1 } });
    expect((await list(endpointScope('ep_late'), t0)).entries.map((e) => e.event_id)).toEqual([later, late, first]);
  });

  it('a count ahead of its pages (the writer died between raising it and inserting the page) reads as an empty page, and the next writer fills that number', async () => {
    const t0 = Date.parse('2026-11-22T18:00:10.000Z');
    const writer = createActivityWriter(collectionsOf(store()), { indexWaitMs: WAIT_MS });
    const first = await flushOf(writer, 'ep_died')('d0', t0, 1);
    await writer.writeHeld({ now: Date.parse('2026-11-22T19:01:30.000Z'), flush: 1 });
    await collectionsOf(store())
      .dir('2026-11-22')
      .update([{ id: endpointScope('ep_died'), update: { $max: { 'page_count.18': 2 } } }]);
    expect((await list(endpointScope('ep_died'), t0)).entries.map((e) => e.event_id)).toEqual([first]);

    // a new writer process: it probes the count (1 page), writes page 1 and the count stays 2
    const next = createActivityWriter(collectionsOf(store()), { indexWaitMs: WAIT_MS });
    const late = await flushOf(next, 'ep_died')('d1', t0 + 3_500_000, 1);
    await next.writeHeld({ now: Date.parse('2026-11-22T19:05:00.000Z'), flush: 1 });
    expect((await dir(endpointScope('ep_died')))?.page_count).toEqual({ '18': 2 });
    expect((await list(endpointScope('ep_died'), t0)).entries.map((e) => e.event_id)).toEqual([late, first]);
  });

  it('records at most 100 scope-hours a flush while messages wait, the rest with the next flushes; an idle flush records them all', async () => {
    const writer = createActivityWriter(collectionsOf(store()), { indexWaitMs: WAIT_MS });
    // 120 endpoints with a row each in an hour: 120 endpoint scopes, and the account's
    const rowsIn = async (hour: string, now: number) => {
      const events = Array.from({ length: 120 }, (_, k) => {
        const at = Date.parse(`${hour}:10:00.000Z`) + k;
        const id = eventId(`m${hour.slice(11)}_${k}`, at);
        return {
          event_id: id,
          request: request(id, {
            endpoint_id: `ep_many_${k}`,
            received_at: new Date(at).toISOString(),
            target_count: 0,
          }),
          attempts: [],
          tokens: [],
          oldest_ms: at,
        };
      });
      await writer.write({ events, folds: [] }, { now, flush: 1, all: true });
    };
    const recorded = async (hh: string) => {
      const dirs = await Promise.all(Array.from({ length: 120 }, (_, k) => dir(endpointScope(`ep_many_${k}`))));
      return dirs.filter((d) => d?.page_count?.[hh] === 1 && d.change_count?.[hh] === 0).length;
    };
    const empty = { events: [], folds: [] };

    await rowsIn('2026-11-22T21', Date.parse('2026-11-22T21:10:00.000Z'));
    await writer.write(empty, { now: Date.parse('2026-11-22T22:01:30.000Z'), flush: 2 });
    const first = await recorded('21');
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(120);
    await writer.write(empty, { now: Date.parse('2026-11-22T22:01:31.000Z'), flush: 3 });
    expect(await recorded('21')).toBe(120);

    await rowsIn('2026-11-22T22', Date.parse('2026-11-22T22:10:00.000Z'));
    await writer.writeHeld({ now: Date.parse('2026-11-22T23:01:30.000Z'), flush: 4 });
    expect(await recorded('22')).toBe(120);
  });

  it('an hour the writer has not left yet is counted by probing, and a reader remembers the count between calls', async () => {
    const t0 = Date.parse('2026-11-22T20:00:10.000Z');
    const writer = createActivityWriter(collectionsOf(store()), { indexWaitMs: WAIT_MS });
    const flush = flushOf(writer, 'ep_open');
    // a page each
    const ids: string[] = [];
    for (const [k, at] of [t0, t0 + 600_000].entries()) {
      ids.push(await flush(`o${k}`, at, k + 1));
      await writer.writeHeld({ now: at, flush: k + 1 });
    }
    const counts = new PageCounts();
    expect((await list(endpointScope('ep_open'), t0, counts)).entries.map((e) => e.event_id)).toEqual(
      [...ids].reverse(),
    );
    expect(
      await counts.count(
        `2026-11-22T20|${endpointScope('ep_open')}|p`,
        collectionsOf(store()).index('2026-11-22T20'),
        (n) => `${endpointScope('ep_open')}|${n}`,
      ),
    ).toBe(2);

    // one more page: the remembered count (2) is confirmed with a read of page 2, which is
    // there, newer, and listed first; page 1, read ahead meanwhile, is read once
    const third = await flush('o2', t0 + 1_200_000, 3);
    await writer.writeHeld({ now: t0 + 1_200_000, flush: 3 });
    const warm = await list(endpointScope('ep_open'), t0, counts);
    expect(warm.entries.map((e) => e.event_id)).toEqual([third, ...[...ids].reverse()]);
    // 1 directory read; pages 2, 4, 3 to find the count is 3; the remembered change count (0)
    // confirmed; pages 1, 0; in hour 21 (listed from 20 on, empty) the remembered counts (0) confirmed
    expect(warm.reads).toBe(9);
  });
});
