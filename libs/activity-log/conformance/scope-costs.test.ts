import type { KeyedCollection } from '@relay/store';
import {
  LogCollections,
  PageCounts,
  endpointScope,
  listIndexed,
  createActivityWriter,
} from '../../../test/support/activity-log-internals';
import type { IndexDoc, ActivityWriter } from '../../../test/support/activity-log-internals';
import type { ActivityDoc } from '@relay/store';
import { eventId, fileStore, request } from './fixtures';

/**
 * What a flush sends the store does not grow with the number of scopes it
 * touches (docs/architecture.md "Activity log storage", docs/benchmarks.md "activity-scopes").
 * On the real store, counting the log's own collection calls.
 */
const store = fileStore('scopecosts');
const WAIT_MS = 10_000;

type Calls = Record<string, number>;

/** The log's collections, counting `<collection kind> <call>` (`dir insertNew`). */
class CountedCollections extends LogCollections<ActivityDoc> {
  readonly calls: Calls = {};
  override index(hour: string): KeyedCollection<IndexDoc> {
    return this.counted('index', super.index(hour));
  }
  override dir(day: string): KeyedCollection<IndexDoc> {
    return this.counted('dir', super.dir(day));
  }
  private counted(kind: string, coll: KeyedCollection<IndexDoc>): KeyedCollection<IndexDoc> {
    const count = (call: string) => (this.calls[`${kind} ${call}`] = (this.calls[`${kind} ${call}`] ?? 0) + 1);
    return {
      get: (id) => (count('get'), coll.get(id)),
      getMany: (ids) => (count('getMany'), coll.getMany(ids)),
      insertNew: (docs) => (count('insertNew'), coll.insertNew(docs)),
      update: (ops) => (count('update'), coll.update(ops)),
      delete: (ids) => (count('delete'), coll.delete(ids)),
    };
  }
}

const log = () => new CountedCollections(store().connection);

/** one flush of a row on each of `endpoints` endpoints at `at` */
async function flushSpread(
  writer: ActivityWriter,
  label: string,
  endpoints: number,
  at: number,
  flush: number,
): Promise<string[]> {
  const events = Array.from({ length: endpoints }, (_, k) => {
    const id = eventId(`${label}${k}`, at);
    return {
      event_id: id,
      request: request(id, {
        account_id: `acc_${label}${k % 7}`,
        endpoint_id: `ep_${label}${k}`,
        source_ip: `10.0.${k >> 8}.${k & 255}`,
        received_at: new Date(at).toISOString(),
        target_count: 0,
      }),
      attempts: [],
      tokens: [],
      oldest_ms: at,
    };
  });
  await writer.write({ events, folds: [] }, { now: at, flush });
  return events.map((e) => e.event_id);
}

const listAll = (
  l: LogCollections<ActivityDoc>,
  scope: string,
  fromMs: number,
  toMs: number,
  counts = new PageCounts(),
) => listIndexed(l, { scope, fromMs, toMs, cursor: null, limit: 100, matches: () => true, budget: 1000, counts });

describe('a flush costs the same store commands over 1 or 300 scopes', () => {
  it("a writer counting since before an hour began numbers its scopes' first pages there with no read, and lists the hour in the directory with one insert", async () => {
    const l = log();
    const writer = createActivityWriter(l, { indexWaitMs: WAIT_MS });
    // the writer starts in the hour before (where it probes: it started during that hour)
    await flushSpread(writer, 'w', 1, Date.parse('2026-11-23T09:50:00.000Z'), 1);
    await writer.writeHeld({ now: Date.parse('2026-11-23T09:50:00.000Z'), flush: 1 });
    for (const key of Object.keys(l.calls)) delete l.calls[key];

    const at = Date.parse('2026-11-23T10:00:05.000Z');
    const ids = await flushSpread(writer, 'n', 300, at, 2);
    await writer.writeHeld({ now: at, flush: 2 });
    // every page of both writes: no probe, no directory update; the directory by insert
    expect(l.calls['index get'] ?? 0).toBe(0);
    expect(l.calls['dir update'] ?? 0).toBe(0);
    expect(l.calls['dir get'] ?? 0).toBe(0);
    expect(l.calls['dir insertNew']).toBeLessThanOrEqual(2);
    expect(l.calls['index insertNew']).toBeLessThanOrEqual(2);
    // and every scope lists its row
    for (const k of [0, 150, 299])
      expect(
        (await listAll(l, endpointScope(`ep_n${k}`), at - 60_000, at + 60_000)).entries.map((e) => e.event_id),
      ).toEqual([ids[k]]);
  });

  it('a page number another writer took is never written over: the count is probed and the page goes after it', async () => {
    const l = log();
    const writer = createActivityWriter(l, { indexWaitMs: 0 });
    await flushSpread(writer, 'c', 1, Date.parse('2026-11-23T11:50:00.000Z'), 1);
    const at = Date.parse('2026-11-23T12:00:05.000Z');
    // page 0 of the hour written by a writer before this one (a takeover this one missed)
    const other = eventId('other', at - 1000);
    const first = createActivityWriter(new LogCollections(store().connection), { indexWaitMs: 0 });
    await first.write(
      {
        events: [
          {
            event_id: other,
            request: request(other, {
              account_id: 'acc_c0',
              endpoint_id: 'ep_c0',
              received_at: new Date(at - 1000).toISOString(),
              target_count: 0,
            }),
            attempts: [],
            tokens: [],
            oldest_ms: at,
          },
        ],
        folds: [],
      },
      { now: at, flush: 1 },
    );
    const [mine] = await flushSpread(writer, 'c', 1, at, 2);
    expect((await listAll(l, endpointScope('ep_c0'), at - 60_000, at + 60_000)).entries.map((e) => e.event_id)).toEqual(
      [mine, other],
    );
    expect(await l.index('2026-11-23T12').get(`${endpointScope('ep_c0')}|1`)).not.toBeNull();
  });
});

describe('held pages past the bound on what is held (20,000 entries)', () => {
  it('writes the oldest held pages, as many as make room for another flush like the last, not every held page at once', async () => {
    const l = log();
    const writer = createActivityWriter(l, { indexWaitMs: WAIT_MS });
    const at = Date.parse('2026-11-23T15:00:05.000Z');
    // two flushes of 6,000 rows on endpoints of their own: 12,000 entries each held (endpoints
    // and source-IP buckets), past the bound with the second flush
    const first = await flushSpread(writer, 'b', 6000, at, 1);
    expect(writer.heldSince()).toBe(1);
    await flushSpread(writer, 'bb', 6000, at + 1000, 2);
    // 24,000 held: the oldest 14,000 written (the first flush's and the oldest of the second's),
    // 10,000 stay (half the bound: room for another 12,000-entry flush would leave less)
    expect(writer.heldSince()).toBe(2);
    for (const k of [0, 3000, 5999])
      expect(
        (await listAll(l, endpointScope(`ep_b${k}`), at - 60_000, at + 60_000)).entries.map((e) => e.event_id),
      ).toEqual([first[k]]);
    expect(await l.index('2026-11-23T15').get(`${endpointScope('ep_bb0')}|0`)).not.toBeNull();
    expect(await l.index('2026-11-23T15').get(`${endpointScope('ep_bb5999')}|0`)).toBeNull();
    // 12,000 rows and their index entries written to the real store: room for a busy machine
  }, 120_000);
});

describe('the day directory lists a scope from its first hour of the day', () => {
  it('lists the hour and the rest of the day; a row of an earlier hour lowers it; a directory of the earlier layout (hours) is still read', async () => {
    const l = log();
    const writer = createActivityWriter(l, { indexWaitMs: 0 });
    const scope = endpointScope('ep_d0');
    const [at14] = await flushSpread(writer, 'd', 1, Date.parse('2026-11-24T14:10:00.000Z'), 1);
    expect(await l.dir('2026-11-24').get(scope)).toMatchObject({ from: 14 });
    const [at16] = await flushSpread(writer, 'd', 1, Date.parse('2026-11-24T16:10:00.000Z'), 2);
    // a row of 09:00 arriving late, by a writer that knows nothing (a new process)
    const late = createActivityWriter(log(), { indexWaitMs: 0 });
    const [at09] = await flushSpread(late, 'd', 1, Date.parse('2026-11-24T09:10:00.000Z'), 1);
    expect(await l.dir('2026-11-24').get(scope)).toMatchObject({ from: 9 });
    expect(
      (
        await listAll(l, scope, Date.parse('2026-11-24T00:00:00.000Z'), Date.parse('2026-11-24T23:00:00.000Z'))
      ).entries.map((e) => e.event_id),
    ).toEqual([at16, at14, at09]);

    // a directory document as the layout before 2026-11-26 wrote it: the hours it lists
    const old = eventId('old', Date.parse('2026-11-25T03:10:00.000Z'));
    await late.write(
      {
        events: [
          {
            event_id: old,
            request: request(old, {
              account_id: 'acc_old',
              endpoint_id: 'ep_old',
              received_at: '2026-11-25T03:10:00.000Z',
              target_count: 0,
            }),
            attempts: [],
            tokens: [],
            oldest_ms: 0,
          },
        ],
        folds: [],
      },
      { now: Date.parse('2026-11-25T03:10:00.000Z'), flush: 2 },
    );
    await store()
      .connection.collection('activity_dir_20261125')
      .replaceOne({ _id: endpointScope('ep_old') } as never, { hours: [3] });
    expect(
      (
        await listAll(
          l,
          endpointScope('ep_old'),
          Date.parse('2026-11-25T00:00:00.000Z'),
          Date.parse('2026-11-25T23:00:00.000Z'),
        )
      ).entries.map((e) => e.event_id),
    ).toEqual([old]);
    // and a later row that day, by a writer that never saw that directory, lists its hour by `from`, the old hours kept
    const at05 = eventId('old5', Date.parse('2026-11-25T05:10:00.000Z'));
    await createActivityWriter(log(), { indexWaitMs: 0 }).write(
      {
        events: [
          {
            event_id: at05,
            request: request(at05, {
              account_id: 'acc_old',
              endpoint_id: 'ep_old',
              received_at: '2026-11-25T05:10:00.000Z',
              target_count: 0,
            }),
            attempts: [],
            tokens: [],
            oldest_ms: 0,
          },
        ],
        folds: [],
      },
      { now: Date.parse('2026-11-25T05:10:00.000Z'), flush: 1 },
    );
    expect(await l.dir('2026-11-25').get(endpointScope('ep_old'))).toMatchObject({ hours: [3], from: 5 });
    expect(
      (
        await listAll(
          l,
          endpointScope('ep_old'),
          Date.parse('2026-11-25T00:00:00.000Z'),
          Date.parse('2026-11-25T23:00:00.000Z'),
        )
      ).entries.map((e) => e.event_id),
    ).toEqual([at05, old]);
  });

  it('once the writer has left them, the hours it listed with no page are recorded as empty: a reader reads the directory alone for them', async () => {
    const l = log();
    const writer = createActivityWriter(l, { indexWaitMs: WAIT_MS });
    const scope = endpointScope('ep_z0');
    const [id] = await flushSpread(writer, 'z', 1, Date.parse('2026-11-26T01:10:00.000Z'), 1);
    // the writer moves on: 01 to 04 are behind it (idle flushes record every count due)
    await writer.writeHeld({ now: Date.parse('2026-11-26T05:02:00.000Z'), flush: 1, idle: true });
    expect(await l.dir('2026-11-26').get(scope)).toMatchObject({
      from: 1,
      page_count: { '1': 1, '2': 0, '3': 0, '4': 0 },
      change_count: { '1': 0, '2': 0, '3': 0, '4': 0 },
    });
    const page = await listAll(
      l,
      scope,
      Date.parse('2026-11-26T00:00:00.000Z'),
      Date.parse('2026-11-26T05:00:00.000Z'),
    );
    expect(page.entries.map((e) => e.event_id)).toEqual([id]);
    // the directory and the one page
    expect(page.reads).toBe(2);
  });
});
