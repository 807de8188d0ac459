import { decodeChange, decodeEntry } from './entries';
import type { ChangeTuple, EntryTuple, IndexChange, IndexEntry } from './entries';
import type { IndexDoc } from './index-docs';
import { DAY_MS, HOUR_MS, MINUTE_MS, dayOf, hourOf, ids, minuteOf, startOf } from './keys';
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

/** Rows read at once. */
const PARALLEL_ROWS = 25;
/** Day documents read at once while walking back through a window. */
const DAYS_AHEAD = 4;
/** Minutes whose head and newest page are read at once. */
const MINUTES_AHEAD = 8;

/**
 * Lists one scope's rows newest first by walking its index (keys.ts): day → hours → minutes →
 * pages, reading each document by `_id`, several at once. Entries are filtered on the index
 * first; the candidate rows are then read by `_id` and checked again, and an entry whose
 * generation is not the row's (a duplicate left by a redelivery) is skipped. The work of one
 * call is bounded by `budget` whatever the size of the log: a sparse filter returns fewer rows
 * and a cursor.
 */
export function listIndexed<R extends IndexedRow>(index: KeyedCollection<IndexDoc>, rows: KeyedCollection<R>, q: ListQuery<R>): Promise<ListResult<R>> {
  return new Walk(index, rows, q).run();
}

interface Candidate {
  entry: IndexEntry;
  at: Position;
}

interface MinuteRead {
  minute: string;
  head: IndexDoc | null;
  newest: IndexDoc | null;
  changes: Map<string, IndexChange>;
}

class Full extends Error {}

class Walk<R extends IndexedRow> {
  private readonly out: R[] = [];
  private pending: Candidate[] = [];
  /** everything newer than this has been examined */
  private scanned: Position | null = null;
  /** set when the page filled or the row budget ran out in the middle of the candidates */
  private stoppedAt: Position | null = null;
  private readonly read = { index_docs: 0, rows: 0 };
  private readonly upper: number;

  constructor(
    private readonly index: KeyedCollection<IndexDoc>,
    private readonly rows: KeyedCollection<R>,
    private readonly q: ListQuery<R>,
  ) {
    this.upper = Math.min(q.toMs, q.cursor ? startOf(q.cursor.minute) + MINUTE_MS : Infinity);
  }

  async run(): Promise<ListResult<R>> {
    try {
      await this.walkDays();
      await this.drain();
      return this.result(null);
    } catch (err) {
      if (!(err instanceof Full)) throw err;
      return this.result(this.stoppedAt ?? this.scanned);
    }
  }

  private result(next: Position | null): ListResult<R> {
    return { rows: this.out, next, read: this.read };
  }

  private get(id: string): Promise<IndexDoc | null> {
    this.read.index_docs += 1;
    return this.index.get(id);
  }

  /** Before more index reads: past the budget, what was found so far is the page. */
  private async spend(): Promise<void> {
    if (this.read.index_docs < this.q.budget.indexDocs) return;
    await this.drain();
    throw new Full();
  }

  private async walkDays(): Promise<void> {
    const firstDay = startOf(dayOf(this.upper - 1));
    const lastDay = startOf(dayOf(this.q.fromMs));
    for (let chunk = firstDay; chunk >= lastDay; chunk -= DAYS_AHEAD * DAY_MS) {
      const days: number[] = [];
      for (let d = chunk; d >= lastDay && d > chunk - DAYS_AHEAD * DAY_MS; d -= DAY_MS) days.push(d);
      await this.spend();
      const docs = await mapLimit(days, DAYS_AHEAD, (d) => this.get(ids.day(this.q.scope, dayOf(d))));
      for (let i = 0; i < days.length; i++) {
        for (const h of [...(docs[i]?.hours ?? [])].sort((a, b) => b - a)) {
          const hourStart = days[i]! + h * HOUR_MS;
          if (hourStart < this.upper && hourStart + HOUR_MS > this.q.fromMs) await this.walkHour(hourStart);
        }
        this.scanned = boundary(days[i]!);
      }
    }
  }

  private async walkHour(hourStart: number): Promise<void> {
    await this.spend();
    const doc = await this.get(ids.hour(this.q.scope, hourOf(hourStart)));
    const minutes = [...(doc?.minutes ?? [])]
      .sort((a, b) => b - a)
      .map((m) => hourStart + m * MINUTE_MS)
      .filter((start) => start < this.upper && start + MINUTE_MS > this.q.fromMs)
      .map(minuteOf);
    for (let i = 0; i < minutes.length; i += MINUTES_AHEAD) {
      await this.spend();
      const reads = await mapLimit(minutes.slice(i, i + MINUTES_AHEAD), MINUTES_AHEAD, (m) => this.readMinute(m));
      for (const r of reads) await this.walkMinute(r);
      if (this.pending.length > 0) await this.drain();
    }
    this.scanned = boundary(hourStart);
  }

  /** A minute's head, its newest page still to read, and its changes, together. */
  private async readMinute(minute: string): Promise<MinuteRead> {
    const head = await this.get(ids.minute(this.q.scope, minute));
    const first = this.firstPage(minute, head?.pages ?? 0);
    const [newest, changes] = await Promise.all([first >= 0 ? this.get(ids.page(this.q.scope, minute, first)) : null, this.readChanges(minute, head?.changes ?? 0)]);
    return { minute, head, newest, changes };
  }

  /** The newest page of `minute` the cursor lets through (-1: none). */
  private firstPage(minute: string, pages: number): number {
    const c = this.q.cursor;
    if (!c || minute < c.minute) return pages - 1;
    return minute === c.minute ? Math.min(pages - 1, c.page) : -1;
  }

  private async walkMinute(r: MinuteRead): Promise<void> {
    const first = this.firstPage(r.minute, r.head?.pages ?? 0);
    for (let p = first; p >= 0; p--) {
      let doc = r.newest;
      if (p !== first) {
        await this.spend();
        doc = await this.get(ids.page(this.q.scope, r.minute, p));
      }
      const entries = (doc?.e ?? []) as EntryTuple[];
      for (let i = entries.length - 1; i >= 0; i--) {
        if (!isAfter(this.q.cursor, r.minute, p, i)) continue;
        const entry = withChange(decodeEntry(entries[i]!), r.changes.get(entries[i]!.i));
        if (entry.received_ms < this.q.fromMs || entry.received_ms >= this.q.toMs || !this.q.matches(entry)) continue;
        this.pending.push({ entry, at: { minute: r.minute, page: p, index: i } });
      }
      this.scanned = { minute: r.minute, page: p, index: 0 };
      // enough candidates to fill the page: read them before walking further
      if (this.pending.length >= this.q.limit - this.out.length) await this.drain();
    }
    this.scanned = { minute: r.minute, page: -1, index: 0 };
  }

  /** Reads the candidates' rows in order; throws Full once the page is full or the row budget is spent. */
  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, Math.min(PARALLEL_ROWS, this.q.budget.rows - this.read.rows));
      if (batch.length === 0) {
        this.stoppedAt = this.pending[0] ? previous(this.pending[0].at) : null;
        throw new Full();
      }
      this.read.rows += batch.length;
      const found = await mapLimit(batch, PARALLEL_ROWS, (c) => this.rows.get(c.entry.event_id));
      for (let i = 0; i < batch.length; i++) {
        const row = found[i];
        if (row && (row.ixg ?? null) === batch[i]!.entry.generation && this.q.accepts(row)) this.out.push(row);
        if (this.out.length >= this.q.limit) {
          this.stoppedAt = batch[i]!.at;
          this.pending = [];
          throw new Full();
        }
      }
    }
  }

  private async readChanges(minute: string, count: number): Promise<Map<string, IndexChange>> {
    const map = new Map<string, IndexChange>();
    if (count === 0) return map;
    const pages = await mapLimit(Array.from({ length: count }, (_, n) => n), 4, (n) => this.get(ids.changes(this.q.scope, minute, n)));
    for (const page of pages) for (const t of (page?.e ?? []) as ChangeTuple[]) map.set(t.i, decodeChange(t));
    return map;
  }
}

/** The position meaning "everything from `ms` on was read": continue before it. */
function boundary(ms: number): Position {
  return { minute: minuteOf(ms), page: -1, index: 0 };
}

/** The position just newer than `p`, so that continuing after it starts with `p` itself. */
function previous(p: Position): Position {
  return { ...p, index: p.index + 1 };
}

function withChange(entry: IndexEntry, change: IndexChange | undefined): IndexEntry {
  return change ? { ...entry, status: change.status, text: change.text ?? entry.text } : entry;
}
