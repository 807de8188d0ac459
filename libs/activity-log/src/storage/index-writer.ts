import { encodeChanges, encodeEntries } from './entries';
import type { IndexChange, IndexEntry } from './entries';
import { changePageId, dayOf, hourOf, isAccountScope, pageId, startOf } from './keys';
import type { Scope } from './keys';
import { ACTIVITY_PARTITIONS } from '@relay/contracts';
import { mapLimit } from '@relay/store';
import type { LogCollections, IndexDoc, MergeableRow } from './log';
import { countPages } from './page-count';

export interface ScopedEntry {
  scope: Scope;
  /** the partition of the row (LogCollections.hourOfRow) */
  hour: string;
  /**
   * the activity partition of the scope's account (`activityPartitionOf`): what the writer
   * forgets when it is given that partition (`resync`). Carried, since an endpoint's scope
   * (`e:<endpoint>`) does not name its account
   */
  partition: number;
  entry: IndexEntry;
}

export interface ScopedChange {
  scope: Scope;
  /** the partition of the row the change is about */
  hour: string;
  /** the activity partition of the scope's account (ScopedEntry.partition) */
  partition: number;
  change: IndexChange;
}

/** Page counters remembered between flushes (bounded; a miss costs a probe). */
const COUNTERS_MAX = 50_000;

export interface IndexWriterOptions {
  /**
   * How long a sparse scope's entries wait to share one page with later flushes' (0: every
   * flush writes its pages): once this old, a held page is written when it is worth a read
   * (`PAGE_MIN_ENTRIES`). Account scopes are never held: their pages are full at any traffic.
   */
  waitMs: number;
  /** longest a held page waits, worth a read or not (a rare group's rows) */
  maxWaitMs: number;
  /** a held scope is written once it has this many entries and changes */
  pageEntries: number;
}

/**
 * Entries (and changes) that make a held page worth a read once it waited `waitMs`: a read
 * costs about the same for one entry or a dozen (docs/architecture.md "Holding sparse pages").
 */
const PAGE_MIN_ENTRIES = 8;

/** When a flush happens and which one it is (the pipeline numbers them). */
export interface FlushClock {
  now: number;
  /** the flush's number; `heldSince()` answers in these */
  flush: number;
  /** write every held page now (shutdown, idle), or with `partition` every held page of that activity partition (giving it away) */
  all?: boolean;
  /** with `all`: only the held pages of this activity partition's scopes */
  partition?: number;
  /** nothing waits on this flush (idle, shutdown): it records every count due, not `RECORDS_PER_FLUSH` */
  idle?: boolean;
}

/** Entries held at once across scopes; past it the oldest held pages are written. Bounds memory. */
const HELD_ENTRIES_MAX = 20_000;

interface Held {
  hour: string;
  scope: Scope;
  partition: number;
  entries: IndexEntry[];
  changes: IndexChange[];
  since: number;
  /** the first flush whose entries it holds */
  flush: number;
}

/**
 * Writes index pages, insert-only: each flush adds one page per scope and hour it touched
 * (one insert per hour), plus one change page where rows changed status. The writer remembers
 * the next page number; after a restart it probes for it, and a page is never written over.
 * The day's directory is the only thing updated: a scope's first page in an hour registers the
 * hour, and once the writer has left the hour it records the scope's page counts there
 * (`recordCounts`), which later pages into the hour raise first.
 *
 * Sparse scopes (endpoints, groups, source-IP buckets) are held across flushes — `waitMs` and
 * until worth a read, at most `maxWaitMs` or `pageEntries`: at steady traffic a flush a second
 * would otherwise write a page of one or two entries per endpoint and bucket, and listing reads
 * pages one by one (docs/architecture.md). What is held is in no page yet, so the pipeline
 * acknowledges a flush's messages only once nothing of that flush is held (`heldSince`); a
 * writer that dies holding entries has its messages redelivered.
 *
 * One writer per scope at a time: two writers would number pages of one scope and hour alike.
 * Writers share a store by partition (an account's scopes are all in its account's partition,
 * written by the one writer the broker gives that partition to); a writer that is given a
 * partition calls `resync`, since the writer before it may have written its scopes.
 */
export class IndexWriter {
  /** counterKey → the next free page number, and the activity partition of the scope's account */
  private readonly next = new Map<string, { n: number; partition: number }>();
  /**
   * `<day>|<scope>` → the first hour of the day the directory lists for the scope (`from`: it
   * lists every hour from there to the day's end), the last hour whose counts are recorded, and
   * the scope's activity partition
   */
  private readonly registered = new Map<string, { from: number; through: number; partition: number }>();
  private readonly held = new Map<string, Held>();
  private heldEntries = 0;
  /** counter keys whose count is in the directory */
  private readonly recorded = new Set<string>();
  private countsRecordedBelow = '';
  /**
   * Per activity partition: since when (writer clock) `next` has known every page of the
   * partition's scopes: from this writer's first write, from when it was given the partition
   * (`resync`), and again after anything that made it forget (`reset`, the bound on counters).
   * In an hour that began after that, a scope of the partition with no counter of a kind has no
   * page of that kind. Per partition, since only the partition handed over was written by
   * another writer: the others' knowledge stays whole.
   */
  private readonly countingSince: (number | null)[] = new Array<number | null>(ACTIVITY_PARTITIONS).fill(null);
  /**
   * Per activity partition: since when `recorded` holds every count of the partition's scopes in
   * the directory: from this writer's first write or from when it was given the partition, and
   * again once the bound on `recorded` cleared it. Hours before that may have counts recorded by
   * a writer before it.
   */
  private readonly recordsKnownSince: (number | null)[] = new Array<number | null>(ACTIVITY_PARTITIONS).fill(null);
  /** page counts probed in the store so far (`countPages`: about 2·log2(n) reads each) */
  private probed = 0;

  constructor(
    private readonly log: LogCollections<MergeableRow>,
    private readonly opts: IndexWriterOptions = { waitMs: 0, maxWaitMs: 0, pageEntries: 500 },
  ) {}

  /** How many page counts this writer has probed in the store (relay_activity_index_probes_total). */
  probes(): number {
    return this.probed;
  }

  /** The number of pages of a scope, hour and kind in the store, found by probing (`countPages`). */
  private probe(hour: string, scope: Scope, change: boolean): Promise<number> {
    this.probed += 1;
    return countPages(this.log.index(hour), (k) => (change ? changePageId(scope, k) : pageId(scope, k)));
  }

  /** The first flush with entries still held (of the scopes of one activity partition, when given), or null when nothing is held. */
  heldSince(partition?: number): number | null {
    let first: number | null = null;
    for (const h of this.held.values())
      if ((partition === undefined || h.partition === partition) && (first === null || h.flush < first))
        first = h.flush;
    return first;
  }

  async write(
    entries: ScopedEntry[],
    changes: ScopedChange[],
    clock: FlushClock = { now: Date.now(), flush: 0 },
  ): Promise<void> {
    for (let k = 0; k < ACTIVITY_PARTITIONS; k++) {
      this.countingSince[k] ??= clock.now;
      this.recordsKnownSince[k] ??= clock.now;
    }
    const byHour = new Map<string, { pages: Map<Scope, IndexEntry[]>; changes: Map<Scope, IndexChange[]> }>();
    /** the partition of every scope this write touches */
    const partitions = new Map<Scope, number>();
    const slot = (hour: string) => {
      let s = byHour.get(hour);
      if (!s) byHour.set(hour, (s = { pages: new Map(), changes: new Map() }));
      return s;
    };
    let added = 0;
    const hold = (hour: string, scope: Scope, partition: number): Held | null => {
      partitions.set(scope, partition);
      if (this.opts.waitMs <= 0 || isAccountScope(scope)) return null;
      const key = `${hour}|${scope}`;
      let h = this.held.get(key);
      if (!h)
        this.held.set(
          key,
          (h = { hour, scope, partition, entries: [], changes: [], since: clock.now, flush: clock.flush }),
        );
      this.heldEntries += 1;
      added += 1;
      return h;
    };
    for (const { scope, hour, partition, entry } of entries) {
      const h = hold(hour, scope, partition);
      if (h) h.entries.push(entry);
      else push(slot(hour).pages, scope, entry);
    }
    for (const { scope, hour, partition, change } of changes) {
      const h = hold(hour, scope, partition);
      if (h) h.changes.push(change);
      else push(slot(hour).changes, scope, change);
    }
    const all = (h: Held) => clock.all === true && (clock.partition === undefined || h.partition === clock.partition);
    // Past the bound on what is held, the oldest held pages (`held` is in the order they began)
    // are written until what stays leaves room for another flush like this one: when rows spread
    // over more sparse scopes than the bound holds, each flush writes about the pages its own
    // entries make, instead of every held page at once every few flushes.
    let over =
      this.heldEntries >= HELD_ENTRIES_MAX
        ? this.heldEntries - Math.max(HELD_ENTRIES_MAX / 2, HELD_ENTRIES_MAX - added)
        : 0;
    const due = [...this.held].filter(([, h]) => {
      const size = h.entries.length + h.changes.length;
      const age = clock.now - h.since;
      if (over > 0) {
        over -= size;
        return true;
      }
      return (
        all(h) ||
        size >= this.opts.pageEntries ||
        (age >= this.opts.waitMs && size >= PAGE_MIN_ENTRIES) ||
        age >= this.opts.maxWaitMs
      );
    });
    for (const [, h] of due) {
      partitions.set(h.scope, h.partition);
      if (h.entries.length > 0) push(slot(h.hour).pages, h.scope, ...h.entries);
      if (h.changes.length > 0) push(slot(h.hour).changes, h.scope, ...h.changes);
    }

    for (const [hour, s] of byHour) {
      const pages = [...s.pages].map(([scope, list]) => ({
        scope,
        partition: partitions.get(scope)!,
        change: false,
        text: encodeEntries(list.sort((a, b) => a.received_ms - b.received_ms)),
      }));
      const changed = [...s.changes].map(([scope, list]) => ({
        scope,
        partition: partitions.get(scope)!,
        change: true,
        text: encodeChanges(list),
      }));
      await this.register(hour, pages);
      await this.insertPages(hour, [...pages, ...changed], clock.now);
    }
    for (const [key, h] of due) {
      this.held.delete(key);
      this.heldEntries -= h.entries.length + h.changes.length;
    }
    await this.recordCounts(clock.now, clock.idle === true ? Infinity : RECORDS_PER_FLUSH);
  }

  /**
   * Once an hour is behind the writer (its held pages had their time), records in the day's
   * directory how many entry and change pages each scope it wrote there has: a reader then takes
   * the counts as they are instead of probing for them (about 2·log2(n) reads one after another)
   * or confirming them (a read each). One `$max` per scope and hour, at most `most` a flush
   * (`RECORDS_PER_FLUSH` while messages wait: an hour with more scopes is recorded over the next
   * flushes, so that no flush stalls the pipeline). A count of a kind the writer has no counter
   * for is 0 when it has been counting since before the hour began, else probed once (it
   * restarted during the hour). The counts stay exact: a page written into the hour later raises
   * them first (`insertPages`).
   */
  private async recordCounts(now: number, most: number): Promise<void> {
    const settled = hourOf(now - this.opts.maxWaitMs - HOUR_SETTLE_MS);
    if (settled === this.countsRecordedBelow) return;
    const due = new Map<string, { hour: string; scope: Scope; partition: number; pages?: number; changes?: number }>();
    let more = false;
    for (const [key, { n, partition }] of this.next) {
      const [hour, scope, kind] = splitCounterKey(key);
      if (hour >= settled || this.recorded.has(key)) continue;
      const id = `${hour}|${scope}`;
      let d = due.get(id);
      if (!d) {
        if (due.size >= most) {
          more = true;
          continue;
        }
        due.set(id, (d = { hour, scope, partition }));
      }
      if (kind === 'c') d.changes = n;
      else d.pages = n;
    }
    // hours the directory lists for a scope from `from` on without a page of this writer there: a
    // count too (0 where this writer counted since before the hour began), so that readers read
    // nothing for them; one statement per scope with the scope's other hours (raiseCounts)
    const settledDay = dayOf(startOf(settled));
    const through: [{ from: number; through: number }, number][] = [];
    registered: for (const [key, r] of this.registered) {
      const day = key.slice(0, 10);
      if (day > settledDay) continue;
      const scope = key.slice(11);
      const last = day < settledDay ? 23 : hourOfDay(settled) - 1;
      for (let h = Math.max(r.from, r.through + 1); h <= last; h++) {
        const hour = `${day}T${String(h).padStart(2, '0')}`;
        const id = `${hour}|${scope}`;
        if (
          !due.has(id) &&
          !this.recorded.has(counterKey(hour, scope, false)) &&
          !this.next.has(counterKey(hour, scope, false)) &&
          !this.next.has(counterKey(hour, scope, true))
        ) {
          if (due.size >= most) {
            more = true;
            break registered;
          }
          due.set(id, { hour, scope, partition: r.partition });
        }
        through.push([r, h]);
      }
    }
    const list = [...due.values()];
    await mapLimit(list, 8, async (d) => {
      const zero = this.countsAll(d.hour, d.partition) ? 0 : undefined;
      d.pages ??= zero ?? (await this.probe(d.hour, d.scope, false));
      d.changes ??= zero ?? (await this.probe(d.hour, d.scope, true));
    });
    await this.raiseCounts(
      list.map((d) => ({ hour: d.hour, scope: d.scope, counts: { pages: d.pages!, changes: d.changes! } })),
    );
    // only once written: a failed flush tries them again with the next
    if (!more) this.countsRecordedBelow = settled;
    if (this.recorded.size + 2 * list.length > COUNTERS_MAX) {
      this.recorded.clear();
      this.recordsKnownSince.fill(now);
    }
    for (const d of list) for (const change of [false, true]) this.recorded.add(counterKey(d.hour, d.scope, change));
    for (const [r, h] of through) r.through = Math.max(r.through, h);
    // a day whose every hour is recorded needs no more zeros
    if (!more) for (const key of this.registered.keys()) if (key.slice(0, 10) < settledDay) this.registered.delete(key);
  }

  /** Whether `next` holds every page the partition's scopes have in the hour: this writer has been counting them since before the hour began. */
  private countsAll(hour: string, partition: number): boolean {
    const since = this.countingSince[partition] ?? null;
    return since !== null && since <= startOf(hour) - CLOCK_SKEW_MS;
  }

  /**
   * Whether the directory may hold this count: this writer recorded it, or the hour is old
   * enough that an earlier writer (or this one, before `recorded` was cleared) may have.
   */
  private mayBeRecorded(hour: string, scope: Scope, partition: number, change: boolean, now: number): boolean {
    if (this.recorded.has(counterKey(hour, scope, change))) return true;
    const since = this.recordsKnownSince[partition] ?? now;
    return hour < hourOf(since + CLOCK_SKEW_MS - this.opts.maxWaitMs - HOUR_SETTLE_MS);
  }

  /** `$max` of scopes' page counts in their days' directories: one update command per day. */
  private async raiseCounts(
    list: { hour: string; scope: Scope; counts: { pages?: number; changes?: number } }[],
  ): Promise<void> {
    const byDay = new Map<string, Map<Scope, Record<string, number>>>();
    for (const { hour, scope, counts } of list) {
      const dayKey = dayOf(startOf(hour));
      const day = byDay.get(dayKey) ?? new Map<Scope, Record<string, number>>();
      byDay.set(dayKey, day);
      const fields = day.get(scope) ?? {};
      day.set(scope, fields);
      const raise = (field: string, n: number | undefined): void => {
        if (n !== undefined)
          fields[`${field}.${hourOfDay(hour)}`] = Math.max(n, fields[`${field}.${hourOfDay(hour)}`] ?? 0);
      };
      raise('page_count', counts.pages);
      raise('change_count', counts.changes);
    }
    for (const [day, scopes] of byDay)
      await this.log
        .dir(day)
        .update([...scopes].map(([scope, fields]) => ({ id: scope, update: { $max: fields }, upsert: true })));
  }

  /**
   * Inserts each page under the next free number. A number already taken (the writer restarted
   * and its memory is behind, or a flush failed after writing some pages) is never overwritten:
   * the count is probed again and the page goes after it.
   */
  private async insertPages(
    hour: string,
    pages: { scope: Scope; partition: number; change: boolean; text: string }[],
    now: number,
  ): Promise<void> {
    let pending = pages;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === 3)
        throw new Error(`activity index pages of ${hour} kept colliding; is a second writer running on this store?`);
      const numbers = await mapLimit(pending, 8, (p) => this.take(hour, p.scope, p.partition, p.change));
      // where the directory may hold a count already, it is raised before the page goes in, so
      // that a count a reader takes is never short of a page (a count ahead of a page that never
      // came — the writer died in between — reads as an empty page)
      const raise = pending.flatMap((p, i) =>
        this.mayBeRecorded(hour, p.scope, p.partition, p.change, now)
          ? [{ hour, scope: p.scope, counts: p.change ? { changes: numbers[i]! + 1 } : { pages: numbers[i]! + 1 } }]
          : [],
      );
      if (raise.length > 0) await this.raiseCounts(raise);
      const docs: IndexDoc[] = pending.map((p, i) => ({
        _id: p.change ? changePageId(p.scope, numbers[i]!) : pageId(p.scope, numbers[i]!),
        e: p.text,
      }));
      // insertNew answers the ids that were taken already: those pages go again, under new numbers
      const taken = new Set(await this.log.index(hour).insertNew(docs));
      pending = pending.filter((_, i) => taken.has(docs[i]!._id));
      // the store is ahead of this writer's count: probed, and the page goes after it
      await mapLimit(pending, 8, async (p) => {
        this.next.set(counterKey(hour, p.scope, p.change), {
          n: await this.probe(hour, p.scope, p.change),
          partition: p.partition,
        });
      });
    }
  }

  /**
   * Another writer may have written the scopes of `partition` (the activity partition of their
   * accounts), which this one writes from now on (it was given the partition): what it knows of
   * their page counts and of their counts in the directory holds only from now. Their counters
   * are probed again, an hour that began before now is no longer taken as counted from its start
   * for them, and their counts may be in the directory already. The other partitions' scopes
   * keep their counters: nobody else wrote them (a partition has one writer at a time), so a
   * hand-over costs probes of the partition handed over alone. One pass over what is
   * remembered (bounded by COUNTERS_MAX), once per hand-over.
   */
  resync(now: number, partition: number): void {
    for (const [key, c] of this.next) if (c.partition === partition) this.next.delete(key);
    for (const [key, r] of this.registered) if (r.partition === partition) this.registered.delete(key);
    this.countingSince[partition] = now;
    this.recordsKnownSince[partition] = now;
  }

  /**
   * After a failed write: forgets page numbers (the store is the truth again) and what it held
   * (the pipeline fails those flushes' messages too, and their redelivery writes them again).
   */
  reset(): void {
    this.next.clear();
    this.countingSince.fill(null);
    this.held.clear();
    this.heldEntries = 0;
  }

  /**
   * The next free page number of a scope, hour and kind. With no counter, 0 where this writer has
   * been counting since before the hour began (it wrote every page there is: no read), else
   * probed (it started, took a partition over or forgot during the hour). A number that turns out
   * taken is probed again by `insertPages`.
   */
  private async take(hour: string, scope: Scope, partition: number, change: boolean): Promise<number> {
    const key = counterKey(hour, scope, change);
    let n = this.next.get(key)?.n;
    if (n === undefined) n = this.countsAll(hour, partition) ? 0 : await this.probe(hour, scope, change);
    if (this.next.size >= COUNTERS_MAX) {
      this.next.clear();
      this.countingSince.fill(null);
    }
    this.next.set(key, { n: n + 1, partition });
    return n;
  }

  /**
   * Lists the hour in the day's directory for the scopes that have no page there yet, by insert:
   * a scope's first page of the day inserts its directory document `{ from: <hour> }`, which
   * lists every hour from that one to the day's end (readers take an hour with no page as empty;
   * once the hour is behind the writer its counts say so, `recordCounts`). Later hours of the day
   * need nothing: one insert command a flush for the scopes new that day, never an update per
   * scope and hour. Only a document already there that does not list the hour (an earlier hour
   * of the day arriving late, or a document of the layout before 2026-11-26) costs a read and,
   * where it does not list it, a `$min` of its `from`. That read also tells which hours have
   * their counts recorded already (by another writer, or by this one before it was restarted or
   * given the partition): those are not probed and recorded again (`recordCounts`), and a late
   * page into one raises its count first, as it must. Without this, a writer that started or
   * took a partition during the day probed every scope's earlier hours of the day (measured:
   * 2,000–4,400 probes in a 20,000-row bench run).
   */
  private async register(hour: string, pages: { scope: Scope; partition: number }[]): Promise<void> {
    const day = dayOf(startOf(hour));
    const h = hourOfDay(hour);
    const partitionOf = new Map(pages.map((p) => [p.scope, p.partition]));
    const fresh = pages.map((p) => p.scope).filter((s) => !((this.registered.get(`${day}|${s}`)?.from ?? 24) <= h));
    if (fresh.length === 0) return;
    const dir = this.log.dir(day);
    const there = await dir.insertNew(fresh.map((scope) => ({ _id: scope, from: h })));
    const docs = new Map(
      (await mapLimit(there, 8, (scope) => dir.get(scope))).flatMap((d) => (d ? [[d._id, d] as const] : [])),
    );
    for (const d of docs.values()) this.noteRecorded(day, d);
    const behind = there.filter((scope) => !((docs.get(scope)?.from ?? 24) <= h));
    if (behind.length > 0)
      await dir.update(behind.map((scope) => ({ id: scope, update: { $min: { from: h } }, upsert: true })));
    if (this.registered.size + fresh.length > COUNTERS_MAX) this.registered.clear();
    for (const scope of fresh)
      this.registered.set(`${day}|${scope}`, {
        from: Math.min(docs.get(scope)?.from ?? h, h),
        through: -1,
        partition: partitionOf.get(scope)!,
      });
  }

  /** The hours of a directory document whose page and change counts are both recorded, as `recorded` (within its bound). */
  private noteRecorded(day: string, doc: IndexDoc): void {
    for (const [hh, pages] of Object.entries(doc.page_count ?? {})) {
      if (pages === undefined || doc.change_count?.[hh] === undefined) continue;
      if (this.recorded.size + 2 > COUNTERS_MAX) return;
      const hour = `${day}T${hh.padStart(2, '0')}`;
      for (const change of [false, true]) this.recorded.add(counterKey(hour, doc._id, change));
    }
  }
}

const counterKey = (hour: string, scope: Scope, change: boolean): string => `${hour}|${scope}|${change ? 'c' : 'p'}`;

/** hour, scope, 'c' | 'p' of a counterKey (a scope may hold `|`: split at the first and the last) */
function splitCounterKey(key: string): [string, Scope, string] {
  const first = key.indexOf('|');
  const last = key.lastIndexOf('|');
  return [key.slice(0, first), key.slice(first + 1, last), key.slice(last + 1)];
}

/** 0–23: the hour of its day a `YYYY-MM-DDTHH` partition is, as the day directory lists it */
const hourOfDay = (hour: string): number => Number(hour.slice(11, 13));

/** Scope-hours whose counts one flush records at most. */
const RECORDS_PER_FLUSH = 100;

/** How far apart the gateway's and the writer's clocks may be: a row of an hour can reach the writer before its clock gets there. */
const CLOCK_SKEW_MS = 60_000;

/** How long after its end an hour's counts are recorded, beyond the longest hold: rows of the hour still in the hold window (ACTIVITY_HOLD_MS) or in flight. */
const HOUR_SETTLE_MS = 60_000;

function push<T>(map: Map<string, T[]>, scope: string, ...items: T[]): void {
  const list = map.get(scope);
  if (list) list.push(...items);
  else map.set(scope, items);
}
