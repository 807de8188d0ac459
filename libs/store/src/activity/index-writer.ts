import { encodeChanges, encodeEntries } from './entries';
import type { IndexChange, IndexEntry } from './entries';
import { changePageId, dayOf, pageId } from './keys';
import type { Scope } from './keys';
import { mapLimit } from './keyed-collection';
import type { ActivityLog, IndexDoc } from './log';
import { countPages } from './page-count';

export interface ScopedEntry {
  scope: Scope;
  /** the partition of the row (ActivityLog.hourOfRow) */
  hour: string;
  entry: IndexEntry;
}

export interface ScopedChange {
  scope: Scope;
  /** the partition of the row the change is about */
  hour: string;
  change: IndexChange;
}

/** Page counters remembered between flushes (bounded; a miss costs a probe). */
const COUNTERS_MAX = 50_000;

/**
 * Writes index pages, insert-only: each flush adds one page per scope and hour it touched
 * (all of them in one insert per hour), plus one change page where rows changed status. The
 * writer remembers the next page number; after a restart it probes for it. A scope's first page
 * in a day registers the hour in that day's directory — the only update, once per scope and hour.
 *
 * One writer per store: two writers would number pages of one scope and hour alike.
 */
export class IndexWriter {
  private readonly next = new Map<string, number>();
  private readonly registered = new Set<string>();

  constructor(private readonly log: ActivityLog<{ _id: string }>) {}

  async write(entries: ScopedEntry[], changes: ScopedChange[]): Promise<void> {
    const byHour = new Map<string, { pages: Map<Scope, IndexEntry[]>; changes: Map<Scope, IndexChange[]> }>();
    const slot = (hour: string) => {
      let s = byHour.get(hour);
      if (!s) byHour.set(hour, (s = { pages: new Map(), changes: new Map() }));
      return s;
    };
    for (const { scope, hour, entry } of entries) push(slot(hour).pages, scope, entry);
    for (const { scope, hour, change } of changes) push(slot(hour).changes, scope, change);

    for (const [hour, s] of byHour) {
      const coll = this.log.index(hour);
      const docs: IndexDoc[] = [];
      const pages = [...s.pages];
      const numbers = await mapLimit(pages, 8, ([scope]) => this.take(hour, scope, false));
      pages.forEach(([scope, list], i) => docs.push({ _id: pageId(scope, numbers[i]!), e: encodeEntries(list.sort((a, b) => a.received_ms - b.received_ms)) }));
      const changed = [...s.changes];
      const changeNumbers = await mapLimit(changed, 8, ([scope]) => this.take(hour, scope, true));
      changed.forEach(([scope, list], i) => docs.push({ _id: changePageId(scope, changeNumbers[i]!), e: encodeChanges(list) }));
      await this.register(hour, pages.map(([scope]) => scope));
      const existing = await coll.insertNew(docs);
      // a page left by a flush that failed half-way (its messages were requeued): replace it
      for (const id of existing) await coll.update([{ id, update: { $set: { e: docs.find((d) => d._id === id)!.e } } }]);
    }
  }

  /** Forgets page numbers after a failed write: the store is the truth again. */
  reset(): void {
    this.next.clear();
  }

  private async take(hour: string, scope: Scope, change: boolean): Promise<number> {
    const key = `${hour}|${scope}|${change ? 'c' : 'p'}`;
    let n = this.next.get(key);
    if (n === undefined) n = await countPages(this.log.index(hour), (k) => (change ? changePageId(scope, k) : pageId(scope, k)));
    if (this.next.size >= COUNTERS_MAX) this.next.clear();
    this.next.set(key, n + 1);
    return n;
  }

  private async register(hour: string, scopes: Scope[]): Promise<void> {
    const fresh = scopes.filter((s) => !this.registered.has(`${hour}|${s}`));
    if (fresh.length === 0) return;
    const day = dayOf(Date.parse(`${hour}:00:00.000Z`));
    await this.log.dir(day).update(fresh.map((scope) => ({ id: scope, update: { $addToSet: { hours: Number(hour.slice(11, 13)) } }, upsert: true })));
    if (this.registered.size >= COUNTERS_MAX) this.registered.clear();
    for (const s of fresh) this.registered.add(`${hour}|${s}`);
  }
}

function push<T>(map: Map<Scope, T[]>, scope: Scope, item: T): void {
  const list = map.get(scope);
  if (list) list.push(item);
  else map.set(scope, [item]);
}
