import type { KeyedCollection } from '@relay/store';
import { IndexWriter } from './index-writer';
import type { ScopedEntry } from './index-writer';
import type { IndexDoc, LogCollections, MergeableRow } from './log';
import type { IndexEntry } from './entries';

/**
 * An in-memory store of the narrow keyed interface the index writer uses (index pages by hour,
 * directories by day), counting reads and refusing to overwrite like the real one.
 */
function memoryLog() {
  const colls = new Map<string, Map<string, IndexDoc>>();
  let reads = 0;
  const keyed = (name: string): KeyedCollection<IndexDoc> => {
    let docs = colls.get(name);
    if (!docs) colls.set(name, (docs = new Map()));
    const d = docs;
    return {
      get: async (id) => {
        reads += 1;
        return d.get(id) ?? null;
      },
      getMany: async (ids) => {
        reads += 1;
        return ids.flatMap((id) => (d.has(id) ? [d.get(id)!] : []));
      },
      insertNew: async (list) => {
        const taken = list.filter((doc) => d.has(doc._id)).map((doc) => doc._id);
        for (const doc of list) if (!d.has(doc._id)) d.set(doc._id, doc);
        return taken;
      },
      update: async (ops) => {
        for (const { id, update } of ops) {
          const doc = (d.get(id) ?? { _id: id }) as unknown as Record<string, unknown>;
          for (const [op, fields] of Object.entries(update as Record<string, Record<string, number>>)) {
            for (const [path, value] of Object.entries(fields)) {
              const [field, key] = path.split('.') as [string, string | undefined];
              if (key === undefined) {
                const was = doc[field] as number | undefined;
                doc[field] = was === undefined ? value : op === '$min' ? Math.min(was, value) : Math.max(was, value);
                continue;
              }
              const map = (doc[field] ??= {}) as Record<string, number>;
              map[key] = op === '$min' ? Math.min(map[key] ?? value, value) : Math.max(map[key] ?? value, value);
            }
          }
          d.set(id, doc as unknown as IndexDoc);
        }
      },
      delete: async (ids) => ids.forEach((id) => d.delete(id)),
    };
  };
  const log = {
    index: (hour: string) => keyed(`ix_${hour}`),
    dir: (day: string) => keyed(`dir_${day}`),
  } as unknown as LogCollections<MergeableRow>;
  const ids = (hour: string) => [...(colls.get(`ix_${hour}`)?.keys() ?? [])].sort();
  return { log, reads: () => reads, ids };
}

const entry = (id: string, at: number): IndexEntry => ({
  event_id: id,
  received_ms: at,
  endpoint_id: 'ep',
  method: 'POST',
  source_ip: null,
  outcome: 'ACCEPTED',
  reason: null,
  status: 'completed',
  last_error: null,
  target_count: 1,
  test: false,
  aggregated: false,
  alert: false,
  retry_ms: null,
});

const HOUR = '2026-11-20T10';
const hourStart = Date.parse('2026-11-20T10:00:00.000Z');
/** an endpoint scope of partition 3 and one of partition 5: an endpoint's scope does not name its account, its entries carry the partition */
const ofP3: Omit<ScopedEntry, 'entry'> = { scope: 'e:ep_three', hour: HOUR, partition: 3 };
const ofP5: Omit<ScopedEntry, 'entry'> = { scope: 'e:ep_five', hour: HOUR, partition: 5 };

describe('index writer: a partition handed over costs only that partition', () => {
  it('resync of one partition forgets the counters of its scopes alone: the others keep counting without probes', async () => {
    const store = memoryLog();
    const taker = new IndexWriter(store.log);
    const other = new IndexWriter(store.log);
    // the taker has been writing partition 5 since before the hour: it counts its pages itself
    await taker.write([{ ...ofP5, hour: '2026-11-20T08', entry: entry('x', hourStart - 2 * 3_600_000) }], [], {
      now: hourStart - 2 * 3_600_000,
      flush: 1,
    });
    let t = hourStart + 60_000;
    for (let n = 0; n < 3; n++, t += 1000)
      await taker.write([{ ...ofP5, entry: entry(`five${n}`, t) }], [], { now: t, flush: 2 + n });
    // another writer wrote partition 3 in the hour
    for (let n = 0; n < 2; n++, t += 1000)
      await other.write([{ ...ofP3, entry: entry(`three${n}`, t) }], [], { now: t, flush: 1 + n });
    const before = taker.probes();

    // partition 3 is handed to the taker
    taker.resync(t, 3);
    await taker.write(
      [
        { ...ofP3, entry: entry('three2', t) },
        { ...ofP5, entry: entry('five3', t) },
      ],
      [],
      { now: t, flush: 10 },
    );
    // one probe, of the scope of the partition taken; partition 5 went on from its counter
    expect(taker.probes() - before).toBe(1);
    expect(store.ids(HOUR)).toEqual([
      'e:ep_five|0',
      'e:ep_five|1',
      'e:ep_five|2',
      'e:ep_five|3',
      'e:ep_three|0',
      'e:ep_three|1',
      'e:ep_three|2',
    ]);
  });

  it('a writer that resyncs one partition never numbers a page of it like the writer before it', async () => {
    const store = memoryLog();
    const a = new IndexWriter(store.log);
    const b = new IndexWriter(store.log);
    const t = hourStart + 5 * 60_000;
    // b has been writing since before the hour; a writes partition 3 in the hour, then gives it to b
    await b.write([{ ...ofP5, hour: '2026-11-20T08', entry: entry('x', hourStart - 2 * 3_600_000) }], [], {
      now: hourStart - 2 * 3_600_000,
      flush: 1,
    });
    for (let n = 0; n < 4; n++)
      await a.write([{ ...ofP3, entry: entry(`a${n}`, t + n) }], [], { now: t + n, flush: n + 1 });
    // b resyncs another partition only: it must still not take partition 3 as counted from the hour's start
    b.resync(t + 10, 5);
    b.resync(t + 10, 3);
    await b.write([{ ...ofP3, entry: entry('b0', t + 10) }], [], { now: t + 10, flush: 2 });
    expect(store.ids(HOUR)).toEqual(['e:ep_three|0', 'e:ep_three|1', 'e:ep_three|2', 'e:ep_three|3', 'e:ep_three|4']);
  });

  it("after resyncing one partition, the hour's counts of the others are recorded from the counters, of the taken one from the store", async () => {
    const store = memoryLog();
    const taker = new IndexWriter(store.log);
    const giver = new IndexWriter(store.log);
    await taker.write([{ ...ofP5, hour: '2026-11-20T08', entry: entry('x', hourStart - 2 * 3_600_000) }], [], {
      now: hourStart - 2 * 3_600_000,
      flush: 1,
    });
    const t = hourStart + 10 * 60_000;
    await taker.write([{ ...ofP5, entry: entry('five0', t) }], [], { now: t, flush: 2 });
    await giver.write([{ ...ofP3, entry: entry('three0', t) }], [], { now: t, flush: 1 });
    await giver.write([{ ...ofP3, entry: entry('three1', t + 1) }], [], { now: t + 1, flush: 2 });
    taker.resync(t + 2, 3);
    await taker.write([{ ...ofP3, entry: entry('three2', t + 2) }], [], { now: t + 2, flush: 3 });
    const probes = taker.probes();
    // the taker leaves the hour behind: it records the counts of both scopes
    const later = hourStart + 3 * 3_600_000;
    await taker.write([{ ...ofP5, hour: '2026-11-20T13', entry: entry('five1', later) }], [], { now: later, flush: 4 });
    const dir = (id: string) => store.log.dir('2026-11-20').get(id);
    expect((await dir('e:ep_three'))?.page_count?.['10']).toBe(3);
    expect((await dir('e:ep_five'))?.page_count?.['10']).toBe(1);
    // partition 5's change count is 0 without a probe (counted since before the hour); partition 3's is probed
    expect(taker.probes() - probes).toBe(1);
    expect((await dir('e:ep_five'))?.change_count?.['10']).toBe(0);
  });

  it('a writer that starts or takes a partition during the day does not probe the hours whose counts the directory already has', async () => {
    const store = memoryLog();
    const before = new IndexWriter(store.log);
    // the writer before wrote the scope at 08 and 09, and recorded both hours' counts once it left them
    await before.write([{ ...ofP3, hour: '2026-11-20T08', entry: entry('h8', hourStart - 2 * 3_600_000) }], [], {
      now: hourStart - 2 * 3_600_000,
      flush: 1,
    });
    await before.write([{ ...ofP3, hour: '2026-11-20T09', entry: entry('h9', hourStart - 3_600_000) }], [], {
      now: hourStart - 3_600_000,
      flush: 2,
    });
    await before.write([{ ...ofP3, entry: entry('h10', hourStart + 5 * 60_000) }], [], {
      now: hourStart + 5 * 60_000,
      flush: 3,
    });
    const recorded = await store.log.dir('2026-11-20').get('e:ep_three');
    expect(recorded).toMatchObject({ page_count: { 8: 1, 9: 1 }, change_count: { 8: 0, 9: 0 } });

    // a writer given the partition at 10:10 writes the scope, then leaves the hour
    const taker = new IndexWriter(store.log);
    taker.resync(hourStart + 10 * 60_000, 3);
    await taker.write([{ ...ofP3, entry: entry('t10', hourStart + 10 * 60_000) }], [], {
      now: hourStart + 10 * 60_000,
      flush: 1,
    });
    await taker.write([{ ...ofP3, hour: '2026-11-20T13', entry: entry('t13', hourStart + 3 * 3_600_000) }], [], {
      now: hourStart + 3 * 3_600_000,
      flush: 2,
    });
    // probed: hour 10's entry pages (to number its page) and change pages (to record them); 08 and 09 were recorded, 11 began after it counted (12 is not behind it yet)
    expect(taker.probes()).toBe(2);
    expect(await store.log.dir('2026-11-20').get('e:ep_three')).toMatchObject({
      page_count: { 8: 1, 9: 1, 10: 2, 11: 0 },
      change_count: { 8: 0, 9: 0, 10: 0, 11: 0 },
    });
  });
});
