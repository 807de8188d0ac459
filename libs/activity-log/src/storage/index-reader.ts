import { decodeChanges, decodeEntries } from './entries';
import type { IndexChange, IndexEntry } from './entries';
import { DAY_MS, HOUR_MS, changePageId, dayOf, hourOf, pageId, startOf } from './keys';
import type { Scope } from './keys';
import { mapLimit } from '@relay/store';
import type { KeyedCollection } from '@relay/store';
import type { LogCollections, IndexDoc, MergeableRow } from './log';
import type { PageCounts } from './page-count';
import { isAfter } from './position';
import type { Position } from './position';

export interface ListQuery {
  scope: Scope;
  /** window: from inclusive, to exclusive (ms) */
  fromMs: number;
  toMs: number;
  cursor: Position | null;
  limit: number;
  /** the filter, on an entry with its latest change applied */
  matches(entry: IndexEntry): boolean;
  /** most index documents one call reads; past it, the call returns what it found and a cursor */
  budget: number;
  /** page counts remembered across calls (one per process) */
  counts: PageCounts;
}

export interface ListResult {
  entries: IndexEntry[];
  /** where each entry is: a cursor at one lists what comes after it (a search that reads rows stops mid-page) */
  positions: Position[];
  /** where to continue; null when the window holds nothing more */
  next: Position | null;
  reads: number;
}

/** Day directories read at once while walking back through a window. */
const DAYS_AHEAD = 4;
/**
 * Most pages read at once: 1, then 2, 4, 8 as the filter keeps finding too little. The batch size
 * carries over to the next hour: a filter that read a whole hour without filling its page is a
 * sparse one, and reads the next hour's pages at once too. Reads by `_id` are index lookups on
 * MongoDB and on the local store as provisioned (scripts/ferretdb-postgres.sql), so what a read
 * costs is its round trip and the store's per-command work: 40 reads 8 at a time measured
 * 1.5–2× faster than one after another.
 */
const PAGES_AHEAD = 8;

class Stop extends Error {
  constructor(readonly at: Position | null) {
    super('activity list page complete');
  }
}

/**
 * Lists one scope newest first from its index pages alone (keys.ts): day directories → hours →
 * pages, newest page first, each read by `_id` in its hourly partition. A row whose entry was
 * written again (its request arrived after its attempts, or its message was redelivered) is
 * listed once, at its newest entry, whichever call reaches it: the change written with that
 * entry (`IndexChange.replaced_ms`) marks the entries written before it. The reads of one call
 * are bounded by `budget` (plus, at most, one hour's change pages and one batch of pages)
 * whatever the size of the log: a sparse filter returns fewer entries and a cursor.
 */
export async function listIndexed(log: LogCollections<MergeableRow>, q: ListQuery): Promise<ListResult> {
  const out: IndexEntry[] = [];
  const positions: Position[] = [];
  const seen = new Set<string>();
  let reads = 0;
  let scanned: Position | null = null;
  let ahead = 1;
  // one read per document and call: a page read ahead (below) is the same read when its turn comes
  const counted = <T extends { _id: string }>(coll: KeyedCollection<T>): KeyedCollection<T> => {
    const got = new Map<string, Promise<T | null>>();
    return {
      ...coll,
      get: (id) => {
        let doc = got.get(id);
        if (!doc) {
          reads += 1;
          doc = coll.get(id);
          got.set(id, doc);
        }
        return doc;
      },
      getMany: (ids) => {
        reads += ids.length; // one `_id` read each
        return coll.getMany(ids);
      },
    };
  };
  // A call stops at its budget only once it got past its cursor: an hour with more change pages
  // than the budget (a burst of status changes, e.g. a bulk retry) would otherwise stop every
  // call at the position it started from, and following next_cursor would never end.
  const spend = (): void => {
    if (reads >= q.budget && scanned !== null && !samePosition(scanned, q.cursor)) throw new Stop(scanned);
  };
  const upper = Math.min(q.toMs, q.cursor ? startOf(q.cursor.hour) + HOUR_MS : Infinity);

  /** PageCounts' key of an hour's entry pages (`p`) or change pages (`c`) of this scope */
  const countKey = (hour: string, kind: 'p' | 'c'): string => `${hour}|${q.scope}|${kind}`;
  /** The hour's first page the walk reads: the newest, or the cursor's in the cursor's hour. */
  const firstOf = (hour: string, count: number): number => {
    const c = q.cursor;
    return !c || hour < c.hour ? count - 1 : hour === c.hour ? Math.min(count - 1, c.page) : -1;
  };
  /**
   * An hour's index collection, with the reads known in advance already under way: when its
   * counts are known (the directory's, exact, or remembered from an earlier call, to be
   * confirmed), its newest pages and its change pages are read at once, one round trip for the
   * hour instead of two or three. Pages found past a remembered count are newer and read first;
   * those read ahead are taken when the walk reaches them (`counted` reads each document once
   * per call).
   */
  function open(hour: string, recorded: RecordedCounts): KeyedCollection<IndexDoc> {
    const coll = counted(log.index(hour));
    const early = (id: string): void => void coll.get(id).catch(() => undefined);
    const pages = recorded.pages ?? q.counts.known(countKey(hour, 'p'));
    if (pages !== undefined) {
      // a remembered count is confirmed: the page after it is still missing
      if (recorded.pages === undefined) early(pageId(q.scope, pages));
      for (let k = 0, p = firstOf(hour, pages); k < ahead && p - k >= 0; k++) early(pageId(q.scope, p - k));
    }
    const changes = recorded.changes ?? q.counts.known(countKey(hour, 'c'));
    // the change pages, and past a remembered count its confirming read
    const changeReads = changes === undefined ? 0 : changes + (recorded.changes === undefined ? 1 : 0);
    for (let k = 0; k < changeReads; k++) early(changePageId(q.scope, k));
    return coll;
  }

  async function walkHour(hour: string, recorded: RecordedCounts): Promise<void> {
    spend();
    const coll = open(hour, recorded);
    const [count, { changes, replaced }] = await Promise.all([
      recorded.pages ?? q.counts.count(countKey(hour, 'p'), coll, (n) => pageId(q.scope, n)),
      readChanges(coll),
    ]);
    for (let p = firstOf(hour, count); p >= 0; p -= ahead, ahead = Math.min(PAGES_AHEAD, ahead * 2)) {
      spend();
      const numbers = Array.from({ length: Math.min(ahead, p + 1) }, (_, k) => p - k);
      const docs = await mapLimit(numbers, PAGES_AHEAD, (n) => coll.get(pageId(q.scope, n)));
      for (let k = 0; k < numbers.length; k++) {
        const page = numbers[k]!;
        const entries = docs[k]?.e ? decodeEntries(docs[k]!.e!) : [];
        for (let i = entries.length - 1; i >= 0; i--) {
          if (!isAfter(q.cursor, hour, page, i)) continue;
          const { placed_ms: placed = 0, ...stored } = entries[i]!;
          // an entry written before the row's newest one is not listed: the newest is, in this
          // call or in an earlier one whose cursor led here
          const newest = replaced.get(stored.event_id);
          if (newest !== undefined && placed < newest) continue;
          const entry = withChange(stored, changes.get(stored.event_id));
          if (seen.has(entry.event_id)) continue;
          seen.add(entry.event_id);
          if (entry.received_ms < q.fromMs || entry.received_ms >= q.toMs || !q.matches(entry)) continue;
          out.push(entry);
          positions.push({ hour, page, index: i });
          if (out.length >= q.limit) throw new Stop({ hour, page, index: i });
        }
        scanned = { hour, page, index: 0 };
      }
    }
    scanned = { hour, page: -1, index: 0 };

    /** the hour's newest change of each row, and when each row's entry was last written again */
    async function readChanges(
      c: KeyedCollection<IndexDoc>,
    ): Promise<{ changes: Map<string, IndexChange>; replaced: Map<string, number> }> {
      const map = new Map<string, IndexChange>();
      const replaced = new Map<string, number>();
      const n = recorded.changes ?? (await q.counts.count(countKey(hour, 'c'), c, (k) => changePageId(q.scope, k)));
      const pages = await mapLimit(
        Array.from({ length: n }, (_, k) => k),
        4,
        (k) => c.get(changePageId(q.scope, k)),
      );
      for (const page of pages)
        for (const change of page?.e ? decodeChanges(page.e) : []) {
          map.set(change.event_id, change);
          if (change.replaced_ms !== undefined)
            replaced.set(change.event_id, Math.max(change.replaced_ms, replaced.get(change.event_id) ?? 0));
        }
      return { changes: map, replaced };
    }
  }

  try {
    const firstDay = startOf(dayOf(upper - 1));
    const lastDay = startOf(dayOf(q.fromMs));
    for (let chunk = firstDay; chunk >= lastDay; chunk -= DAYS_AHEAD * DAY_MS) {
      const days: number[] = [];
      for (let d = chunk; d >= lastDay && d > chunk - DAYS_AHEAD * DAY_MS; d -= DAY_MS) days.push(d);
      spend();
      const dirs = await mapLimit(days, DAYS_AHEAD, (d) => counted(log.dir(dayOf(d))).get(q.scope));
      for (let i = 0; i < days.length; i++) {
        const dir = dirs[i];
        for (const h of hoursOf(dir)) {
          const hourStart = days[i]! + h * HOUR_MS;
          if (hourStart < upper && hourStart + HOUR_MS > q.fromMs)
            await walkHour(hourOf(hourStart), { pages: dir?.page_count?.[h], changes: dir?.change_count?.[h] });
        }
        scanned = { hour: hourOf(days[i]!), page: -1, index: 0 };
      }
    }
    return { entries: out, positions, next: null, reads };
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    return { entries: out, positions, next: err.at, reads };
  }
}

/**
 * The hours of its day a directory document lists, newest first: from its `from` to the day's
 * end, and those of `hours` (documents written before 2026-11-26).
 */
function hoursOf(dir: IndexDoc | null | undefined): number[] {
  const hours = new Set(dir?.hours ?? []);
  if (dir?.from !== undefined) for (let h = dir.from; h < 24; h++) hours.add(h);
  return [...hours].sort((a, b) => b - a);
}

/** An hour's page counts from the day directory, when the writer recorded them: exact. */
interface RecordedCounts {
  pages?: number;
  changes?: number;
}

const samePosition = (a: Position, b: Position | null): boolean =>
  b !== null && a.hour === b.hour && a.page === b.page && a.index === b.index;

function withChange(entry: IndexEntry, change: IndexChange | undefined): IndexEntry {
  return change ? { ...entry, status: change.status, last_error: change.last_error, retry_ms: change.retry_ms } : entry;
}
