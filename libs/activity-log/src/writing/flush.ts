import { isDeepStrictEqual } from 'node:util';
import { LRUCache } from '@relay/cache';
import { activityPartitionOf } from '@relay/contracts';
import type { StoredPayloadV1 } from '@relay/contracts';
import { IndexWriter, hourOf, lateAttemptId, nextAttemptMs, payloadId, scopesOfRow } from '../storage/internal';
import type { LateAttemptDoc, LogCollections, PayloadDoc, ScopedChange, ScopedEntry } from '../storage/internal';
import type { ActivityLogWriterOptions } from '../driver';
import type { ActivityWriter } from './flusher';
import { groupFolds } from './flood';
import { aggregation, applyMessages, changeOf, entryOf, storedAttempt } from './row';
import type { RowDoc } from './row';

/** The FerretDB driver's index hold (IndexWriter), from the writer's options. */
export type ActivityWriterOptions = Pick<
  ActivityLogWriterOptions,
  'indexWaitMs' | 'indexMaxWaitMs' | 'indexPageEntries'
>;

/**
 * Writes one flush into the hourly partitions (storage/keys.ts), by `_id` only:
 * 1. rows whose request is in the flush are inserted whole, their held attempts merged in —
 *    the common case, and the only one on the hot path: inserts are what FerretDB does cheaply;
 * 2. attempts that come after their row (retries, or first attempts past the hold) are inserted
 *    beside it (`<event_id>~a~<k>`) and merged when the row is read — a row is never updated
 *    for them; the writer remembers recent rows, so this needs no read either;
 *    a late request, or a row whose attempts came first, is merged and written back by `_id`;
 * 3. aggregated rows get one upsert each (count, first and last seen);
 * 4. the index gets one page per scope and hour with the new rows' entries, and a change page
 *    where a row's status or latest error moved — a sparse scope's held for later flushes' up
 *    to `indexWaitMs` (IndexWriter);
 * 5. payloads are inserted (`<event_id>~p`) into the payload partition of their row's hour —
 *    before the rows, see below: one insert per flush and hour, and retention drops them with the hour. Not into the rows'
 *    collection: a row's `_id` read scans its hour there, and must not read payload bytes.
 * One writer per account at a time (the broker's partitions, by account), one flush at a time:
 * merges read-modify-write, which FerretDB does not make atomic, and index pages are numbered by
 * the writer.
 */
export function createActivityWriter(log: LogCollections<RowDoc>, opts: ActivityWriterOptions = {}): ActivityWriter {
  const waitMs = opts.indexWaitMs ?? 0;
  const index = new IndexWriter(log, {
    waitMs,
    maxWaitMs: Math.max(waitMs, opts.indexMaxWaitMs ?? waitMs),
    pageEntries: opts.indexPageEntries ?? 500,
  });
  const partitionOf = (row: { _id: string; received_at: Date }) => log.hourOfRow(row._id, row.received_at.getTime());
  const recent = new LRUCache<string, { row: RowDoc; late: number }>({ max: RECENT_ROWS });

  return {
    reset: () => {
      index.reset();
      recent.clear();
    },
    resync: (now, partition) => {
      index.resync(now, partition);
      // rows of the partition's accounts may have changed under another writer; the others did not
      const gone = [...recent.entries()].flatMap(([id, known]) =>
        activityPartitionOf(known.row.account_id) === partition ? [id] : [],
      );
      for (const id of gone) recent.delete(id);
    },
    heldSince: (partition) => index.heldSince(partition),
    probes: () => index.probes(),
    writeHeld: (clock) => index.write([], [], { ...clock, all: true, idle: clock.partition === undefined }),
    async write(batch, clock) {
      // when this flush writes its entries (IndexEntry.placed_ms), as the index writer's clock
      const now = clock?.now ?? Date.now();
      const entries: ScopedEntry[] = [];
      const changes: ScopedChange[] = [];
      const place = (row: RowDoc, scopes = scopesOfRow(row)) => {
        const partition = activityPartitionOf(row.account_id);
        const entry = { ...entryOf(row), placed_ms: now };
        for (const scope of scopes) entries.push({ scope, hour: partitionOf(row), partition, entry });
      };
      // a row whose status or latest error moved: a change where it is listed already, an entry
      // where it newly belongs (a status group it entered)
      const moved = (before: RowDoc, after: RowDoc, hour: string) => {
        const was = new Set(scopesOfRow(before));
        const now = scopesOfRow(after);
        const partition = activityPartitionOf(after.account_id);
        for (const scope of new Set([...was, ...now]))
          if (was.has(scope)) changes.push({ scope, hour, partition, change: changeOf(after) });
        place(
          after,
          now.filter((s) => !was.has(s)),
        );
      };

      // Payloads first: a row that shows up in the log can be resent at once when its payload
      // came in the same flush (a reader between the two inserts would otherwise see the row
      // and no payload). One insert per hour; one already there (a redelivered message) stays.
      for (const [hour, list] of groupBy(batch.payloads ?? [], (p) =>
        log.hourOfRow(p.event_id, Date.parse(p.received_at)),
      ))
        await log.payloads(hour).insertNew(list.map(payloadDoc));
      const fresh = batch.events
        .filter((e) => e.request !== null)
        .map((e) => applyMessages(e.event_id, null, e.request, e.attempts));
      const existing = new Set<string>();
      for (const [hour, rows] of groupBy(fresh, partitionOf))
        for (const id of await log.rows(hour).insertNew(rows)) existing.add(id);
      for (const row of fresh) if (!existing.has(row._id)) place(row);

      for (const row of fresh) if (!existing.has(row._id)) recent.set(row._id, { row, late: 0 });

      const merges = batch.events.filter((e) => e.request === null || existing.has(e.event_id));
      const lateDocs: { hour: string; doc: LateAttemptDoc }[] = [];
      let settled = 0;
      let created = 0;
      let unchanged = 0;
      const hourOfMerge = (e: (typeof merges)[number]) =>
        log.hourOfRow(e.event_id, Date.parse(e.request?.received_at ?? e.attempts[0]!.attempted_at));
      // the rows not remembered, read together: a few queries per hour, not one read per row
      const read = new Map<string, { row: RowDoc; late: number }>();
      for (const [hour, list] of groupBy(
        merges.filter((e) => !recent.get(e.event_id)),
        hourOfMerge,
      )) {
        for (const [id, known] of await log.rowsWithLate(
          hour,
          list.map((e) => e.event_id),
        ))
          read.set(id, known);
      }
      // one at a time: FerretDB's SQLite backend takes one writer per database (SQLITE_BUSY)
      for (const e of merges) {
        const hour = hourOfMerge(e);
        const remembered = recent.get(e.event_id);
        const known = remembered ?? read.get(e.event_id) ?? null;
        const before = known?.row ?? null;
        const after = applyMessages(e.event_id, before, e.request, e.attempts);
        if (known && isDeepStrictEqual(after, before)) {
          // a redelivered message whose content the row already has: no write of the row. A row
          // this process wrote was indexed by the same flush. One read back from the store may
          // be a killed writer's, whose flush can have stopped before its index pages: its entry
          // and change are written again (a list call shows a row once, at its newest entry).
          if (!remembered) {
            if (e.request) place(after);
            // an entry written again: the change tells readers the earlier ones are not its newest
            const change = { ...changeOf(after), ...(e.request ? { replaced_ms: now } : {}) };
            for (const scope of scopesOfRow(after))
              changes.push({ scope, hour, partition: activityPartitionOf(after.account_id), change });
          }
          recent.set(e.event_id, known);
          unchanged += 1;
          continue;
        }
        if (known && e.request === null) {
          // late attempts (retries, or first attempts past the hold): inserted beside the row,
          // never an update of it — FerretDB scans a collection twice for each update
          e.attempts.forEach((a, i) =>
            lateDocs.push({ hour, doc: { _id: lateAttemptId(e.event_id, known.late + i), attempt: storedAttempt(a) } }),
          );
          recent.set(e.event_id, { row: after, late: known.late + e.attempts.length });
          settled += 1;
          // a retry that failed again moves the next attempt's time too, which the list shows
          if (
            after.status !== before!.status ||
            after.last_error !== before!.last_error ||
            nextAttemptMs(after.deliveries) !== nextAttemptMs(before!.deliveries)
          )
            moved(before!, after, hour);
          continue;
        }
        // a request (late, or redelivered) or a row's first message: the row gets an entry; the
        // list shows the newest entry of a row. Where the row was listed before, a change too,
        // marking the earlier entries as replaced: in a group it left there is no newer entry,
        // and an older change must not win.
        place(after);
        if (before) {
          const change = { ...changeOf(after), replaced_ms: now };
          for (const scope of scopesOfRow(before))
            changes.push({ scope, hour, partition: activityPartitionOf(after.account_id), change });
        }
        const rows = log.rows(hour);
        if (!known) {
          created += 1;
          const dup = await rows.insertNew([after]);
          if (dup.length > 0)
            throw new Error(
              `activity row ${e.event_id} appeared during a flush; is a second writer running on this store?`,
            );
        } else {
          const { _id, ...fields } = after;
          await rows.update([{ id: _id, update: { $set: fields } }]);
        }
        recent.set(e.event_id, { row: after, late: known?.late ?? 0 });
      }
      for (const [hour, docs] of groupBy(lateDocs, (d) => d.hour)) {
        await (log.rows(hour) as unknown as { insertNew(d: LateAttemptDoc[]): Promise<string[]> }).insertNew(
          docs.map((d) => d.doc),
        );
      }

      for (const f of groupFolds(batch.folds)) {
        const agg = aggregation(f);
        await log
          .rows(hourOf(agg.row.received_at.getTime()))
          .update([{ id: agg.id, upsert: true, update: agg.update }]);
        if (f.first) place(agg.row);
      }

      await index.write(entries, changes, clock);
      return {
        payloads: batch.payloads?.length ?? 0,
        inserted: fresh.length - existing.size + created,
        updated: merges.length - settled - created - unchanged,
        late: lateDocs.length,
        aggregated: batch.folds.length,
      };
    },
  };
}

function payloadDoc(p: StoredPayloadV1): PayloadDoc {
  return { _id: payloadId(p.event_id), p: JSON.stringify({ request: p.request, payload: p.payload }) };
}

/** Rows written lately, so that their late attempts need no read (bounded; a miss costs a read). */
const RECENT_ROWS = 20_000;

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}
