import { decodeChange, decodeEntry } from './entries';
import type { ChangeTuple, EntryTuple, IndexChange, IndexEntry } from './entries';
import type { IndexDoc } from './index-docs';
import { DAY_MS, HOUR_MS, MINUTE_MS, dayOf, ids, minuteOf, startOf } from './keys';
import type { Scope } from './keys';
import type { KeyedCollection } from './keyed-collection';
import { mapLimit } from './keyed-collection';
import { isAfter } from './position';
import type { Position } from './position';

export interface IndexedRow {
  _id: string;
  ixg?: string | null;
}

export interface ListQuery<R extends IndexedRow> {
  scope: Scope;
  /** window: from inclusive, to exclusive (ms) */
  fromMs: number;
  toMs: number;
  cursor: Position | null;
  limit: number;
  /** the cheap test, on the index entry with its latest change applied */
  matches(entry: IndexEntry): boolean;
  /** the final test, on the row itself (authoritative: it may have changed since its entry) */
  accepts(row: R): boolean;
  /** most index documents and rows one call reads; past them it returns a cursor */
  budget: { indexDocs: number; rows: number };
}

export interface ListResult<R> {
  rows: R[];
  /** where to continue; null when the window holds nothing more */
  next: Position | null;
  read: { index_docs: number; rows: number };
}

interface Candidate {
  entry: IndexEntry;
  at: Position;
}

class BudgetExhausted extends Error {
  constructor(readonly at: Position) {
    super('activity list budget exhausted');
  }
}

/** Rows fetched at once while filling a page. */
const PARALLEL_ROWS = 25;
/** Day documents fetched ahead while walking back through a window. */
const DAYS_AHEAD = 4;

/**
 * Lists one scope's rows newest first by walking its index (keys.ts): day → hours → minutes →
 * pages, reading each document by `_id`. Entries are filtered on the index first, then the
 * candidate rows are read by `_id` and checked again; an entry whose generation is not the
 * row's (a duplicate left by a redelivery) is skipped. Work per call is bounded by `budget`,
 * whatever the size of the log: a sparse filter returns fewer rows and a cursor.
 */
export async function listIndexed<R extends IndexedRow>(index: KeyedCollection<IndexDoc>, rows: KeyedCollection<R>, q: ListQuery<R>): Promise<ListResult<R>> {
  const out: R[] = [];
  const read = { index_docs: 0, rows: 0 };
  const getIndex = async (id: string): Promise<IndexDoc | null> => {
    read.index_docs += 1;
    return index.get(id);
  };
  const upper = Math.min(q.toMs, q.cursor ? startOf(q.cursor.minute) + MINUTE_MS : Infinity);
  let pending: Candidate[] = [];
  let last: Position | null = null;

  /** Reads the candidates' rows; returns false once the page is full. */
  const drain = async (): Promise<boolean> => {
    while (pending.length > 0) {
      const batch = pending.slice(0, Math.min(PARALLEL_ROWS, Math.max(q.limit - out.length, 1)));
      pending = pending.slice(batch.length);
      read.rows += batch.length;
      const found = await mapLimit(batch, PARALLEL_ROWS, (c) => rows.get(c.entry.event_id));
      for (let i = 0; i < batch.length; i++) {
        const row = found[i];
        last = batch[i]!.at;
        if (row && (row.ixg ?? null) === batch[i]!.entry.generation && q.accepts(row)) out.push(row);
        if (out.length >= q.limit) {
          pending = [];
          return false;
        }
      }
    }
    return true;
  };
  const spend = (at: Position): void => {
    if (read.index_docs >= q.budget.indexDocs || read.rows >= q.budget.rows) throw new BudgetExhausted(last ?? at);
  };

  try {
    const firstDay = startOf(dayOf(upper - 1));
    const lastDay = startOf(dayOf(q.fromMs));
    for (let chunkStart = firstDay; chunkStart >= lastDay; chunkStart -= DAYS_AHEAD * DAY_MS) {
      const days: number[] = [];
      for (let d = chunkStart; d >= lastDay && d > chunkStart - DAYS_AHEAD * DAY_MS; d -= DAY_MS) days.push(d);
      spend(boundary(days[0]! + DAY_MS));
      const dayDocs = await mapLimit(days, DAYS_AHEAD, (d) => getIndex(ids.day(q.scope, dayOf(d))));
      for (let di = 0; di < days.length; di++) {
        const hours = [...(dayDocs[di]?.hours ?? [])].sort((a, b) => b - a);
        for (const h of hours) {
          const hourStart = days[di]! + h * HOUR_MS;
          if (hourStart >= upper || hourStart + HOUR_MS <= q.fromMs) continue;
          spend(boundary(hourStart + HOUR_MS));
          const hourKey = new Date(hourStart).toISOString().slice(0, 13);
          const minutes = [...((await getIndex(ids.hour(q.scope, hourKey)))?.minutes ?? [])].sort((a, b) => b - a);
          for (const m of minutes) {
            const minuteStart = hourStart + m * MINUTE_MS;
            if (minuteStart >= upper || minuteStart + MINUTE_MS <= q.fromMs) continue;
            if (!(await walkMinute(minuteOf(minuteStart)))) return { rows: out, next: last, read };
          }
        }
      }
    }
    await drain();
    return { rows: out, next: out.length >= q.limit ? last : null, read };
  } catch (err) {
    if (!(err instanceof BudgetExhausted)) throw err;
    return { rows: out, next: err.at, read };
  }

  /** false once the page is full */
  async function walkMinute(minute: string): Promise<boolean> {
    spend(boundary(startOf(minute) + MINUTE_MS));
    const head = await getIndex(ids.minute(q.scope, minute));
    if (!head?.pages) return true;
    const changes = await readChanges(minute, head.changes ?? 0);
    for (let p = head.pages - 1; p >= 0; p--) {
      if (!isAfter(q.cursor, minute, p, Number.MAX_SAFE_INTEGER) && !(q.cursor?.minute === minute && q.cursor.page === p)) continue;
      spend({ minute, page: p, index: Number.MAX_SAFE_INTEGER });
      const entries = ((await getIndex(ids.page(q.scope, minute, p)))?.e ?? []) as EntryTuple[];
      for (let i = entries.length - 1; i >= 0; i--) {
        if (!isAfter(q.cursor, minute, p, i)) continue;
        const entry = withChange(decodeEntry(entries[i]!), changes.get(entries[i]!.i));
        if (entry.received_ms < q.fromMs || entry.received_ms >= q.toMs || !q.matches(entry)) continue;
        pending.push({ entry, at: { minute, page: p, index: i } });
      }
      if (!(await drain())) return false;
      last = { minute, page: p, index: 0 };
    }
    last = { minute, page: -1, index: 0 };
    return true;
  }

  async function readChanges(minute: string, count: number): Promise<Map<string, IndexChange>> {
    const map = new Map<string, IndexChange>();
    if (count === 0) return map;
    const pages = await mapLimit(Array.from({ length: count }, (_, n) => n), 4, (n) => getIndex(ids.changes(q.scope, minute, n)));
    for (const page of pages) for (const t of (page?.e ?? []) as ChangeTuple[]) map.set(t.i, decodeChange(t));
    return map;
  }
}

/** The position meaning "everything from `ms` on was read": continue before it. */
function boundary(ms: number): Position {
  return { minute: minuteOf(ms), page: -1, index: 0 };
}

function withChange(entry: IndexEntry, change: IndexChange | undefined): IndexEntry {
  return change ? { ...entry, status: change.status, text: change.text ?? entry.text } : entry;
}
