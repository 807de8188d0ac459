import { encodeChange, encodeEntry } from './entries';
import type { IndexChange, IndexEntry } from './entries';
import type { IndexDoc } from './index-docs';
import { PAGE_ENTRIES } from './index-docs';
import { ids, minuteOf } from './keys';
import type { Scope } from './keys';
import type { KeyedCollection } from './keyed-collection';
import { mapLimit } from './keyed-collection';

interface MinuteState {
  pages: number;
  lastLen: number;
  changes: number;
  lastChangeLen: number;
}

export interface ScopedEntry {
  scope: Scope;
  entry: IndexEntry;
}

export interface ScopedChange {
  scope: Scope;
  /** the row's received time: changes live in the minute of the row they change */
  received_ms: number;
  change: IndexChange;
}

/** Minutes whose page counts are remembered between flushes (bounded; a miss costs one read). */
const MINUTE_CACHE = 20_000;
/** (scope, hour) pairs known to be registered in their hour, day and sweep documents. */
const HOUR_CACHE = 20_000;
/** Index documents written at once. */
const PARALLEL = 16;

/**
 * Appends index entries and changes. Each flush touches each (scope, minute) once: it appends
 * to that minute's last page (or starts pages), updates the minute document, and registers a
 * new minute in its hour, a new hour in its day and in the hour's sweep document. Every write
 * is addressed by `_id`, so its cost does not depend on how many rows exist.
 *
 * One writer per store: FerretDB applies an update as read-modify-write without atomicity, so
 * two writers appending to one page could lose entries (docs/architecture.md).
 */
export class IndexWriter {
  private readonly minutes = new Map<string, MinuteState>();
  private readonly hours = new Set<string>();

  constructor(private readonly index: KeyedCollection<IndexDoc>) {}

  async write(entries: ScopedEntry[], changes: ScopedChange[]): Promise<void> {
    const groups = new Map<string, { scope: Scope; minute: string; entries: IndexEntry[]; changes: IndexChange[] }>();
    const group = (scope: Scope, minute: string) => {
      const key = `${scope}|${minute}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { scope, minute, entries: [], changes: [] }));
      return g;
    };
    for (const { scope, entry } of entries) group(scope, minuteOf(entry.received_ms)).entries.push(entry);
    for (const { scope, received_ms, change } of changes) group(scope, minuteOf(received_ms)).changes.push(change);
    const list = [...groups.values()];
    // newest last within each append, so a page read backwards is newest first
    for (const g of list) g.entries.sort((a, b) => a.received_ms - b.received_ms);
    // A minute not in the cache is (re)registered before anything is appended to it, so a flush
    // that failed half-way can never leave pages that no hour document points to.
    const states = await mapLimit(list, PARALLEL, (g) => this.stateOf(g.scope, g.minute));
    await this.register(list.filter((_, i) => states[i]!.cold));
    await mapLimit(list, PARALLEL, async (g, i) => this.appendToMinute(g.scope, g.minute, states[i]!.state, g.entries, g.changes));
  }

  private async stateOf(scope: Scope, minute: string): Promise<{ state: MinuteState; cold: boolean }> {
    const cached = this.minutes.get(`${scope}|${minute}`);
    if (cached) return { state: cached, cold: false };
    const doc = await this.index.get(ids.minute(scope, minute));
    return { state: { pages: doc?.pages ?? 0, lastLen: doc?.last_len ?? 0, changes: doc?.changes ?? 0, lastChangeLen: doc?.last_change_len ?? 0 }, cold: true };
  }

  private async appendToMinute(scope: Scope, minute: string, state: MinuteState, entries: IndexEntry[], changes: IndexChange[]): Promise<void> {
    const main = await this.appendPages(entries.map(encodeEntry), state.pages, state.lastLen, (n) => ids.page(scope, minute, n));
    const chg = await this.appendPages(changes.map(encodeChange), state.changes, state.lastChangeLen, (n) => ids.changes(scope, minute, n));
    const next = { pages: main.pages, lastLen: main.lastLen, changes: chg.pages, lastChangeLen: chg.lastLen };
    await this.index.update([{ id: ids.minute(scope, minute), update: { $set: { pages: next.pages, last_len: next.lastLen, changes: next.changes, last_change_len: next.lastChangeLen } }, upsert: true }]);
    this.remember(`${scope}|${minute}`, next);
  }

  /** Fills the last page up to PAGE_ENTRIES, then starts new pages. */
  private async appendPages(items: unknown[], pages: number, lastLen: number, pageId: (n: number) => string): Promise<{ pages: number; lastLen: number }> {
    if (items.length === 0) return { pages, lastLen };
    let rest = items;
    if (pages > 0 && lastLen < PAGE_ENTRIES) {
      const fill = rest.slice(0, PAGE_ENTRIES - lastLen);
      rest = rest.slice(fill.length);
      await this.index.update([{ id: pageId(pages - 1), update: { $push: { e: { $each: fill } } }, upsert: true }]);
      lastLen += fill.length;
    }
    const fresh: IndexDoc[] = [];
    for (let i = 0; i < rest.length; i += PAGE_ENTRIES) {
      const chunk = rest.slice(i, i + PAGE_ENTRIES);
      fresh.push({ _id: pageId(pages), e: chunk as IndexDoc['e'] });
      pages += 1;
      lastLen = chunk.length;
    }
    const existing = await this.index.insertNew(fresh);
    // a page left by a flush that failed half-way (its messages were requeued): replace it
    for (const id of existing) await this.index.update([{ id, update: { $set: { e: fresh.find((d) => d._id === id)!.e } } }]);
    return { pages, lastLen };
  }

  private async register(groups: { scope: Scope; minute: string }[]): Promise<void> {
    const regs = new Map<string, { scope: Scope; hour: string; minutes: Set<number> }>();
    for (const g of groups) {
      const hour = g.minute.slice(0, 13);
      const reg = regs.get(`${g.scope}|${hour}`) ?? { scope: g.scope, hour, minutes: new Set<number>() };
      reg.minutes.add(Number(g.minute.slice(14, 16)));
      regs.set(`${g.scope}|${hour}`, reg);
    }
    const ops: { id: string; update: Record<string, unknown>; upsert: boolean }[] = [];
    for (const r of regs.values()) {
      ops.push({ id: ids.hour(r.scope, r.hour), update: { $addToSet: { minutes: { $each: [...r.minutes] } } }, upsert: true });
      const hourKey = `${r.scope}|${r.hour}`;
      if (this.hours.has(hourKey)) continue;
      ops.push({ id: ids.day(r.scope, r.hour.slice(0, 10)), update: { $addToSet: { hours: Number(r.hour.slice(11, 13)) } }, upsert: true });
      ops.push({ id: ids.sweep(r.hour), update: { $addToSet: { scopes: r.scope } }, upsert: true });
      ops.push({ id: ids.retentionCursor, update: { $min: { hour: r.hour } }, upsert: true });
      if (this.hours.size >= HOUR_CACHE) this.hours.clear();
      this.hours.add(hourKey);
    }
    await this.index.update(ops);
  }

  private remember(key: string, state: MinuteState): void {
    if (this.minutes.size >= MINUTE_CACHE && !this.minutes.has(key)) this.minutes.delete(this.minutes.keys().next().value!);
    this.minutes.set(key, state);
  }

  /** Forgets cached page counts (after a failed flush, the store is the truth again). */
  reset(): void {
    this.minutes.clear();
  }
}

