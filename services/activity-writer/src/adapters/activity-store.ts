import { timedId } from '@relay/contracts';
import { IndexWriter, accountScope, endpointScope, hourOf } from '@relay/store';
import type { ScopedChange, ScopedEntry, Store } from '@relay/store';
import type { Fold } from '../domain/flood';
import type { EventGroup } from '../domain/hold';
import { applyMessages, changeOf, entryOf, requestFields } from '../domain/row';
import type { RowDoc } from '../domain/row';

export interface FlushBatch<T> {
  events: EventGroup<T>[];
  folds: Fold[];
}

export interface FlushStats {
  inserted: number;
  updated: number;
  aggregated: number;
}

export interface ActivityWriter {
  write(batch: FlushBatch<unknown>): Promise<FlushStats>;
  /** after a failed write: forget cached index state, the store is the truth again */
  reset(): void;
}


/**
 * Writes one flush into the hourly partitions (store activity/keys.ts), by `_id` only:
 * 1. rows whose request is in the flush are inserted whole, their held attempts merged in —
 *    the common case, and the only one on the hot path: inserts are what FerretDB does cheaply;
 * 2. a row that already exists (its attempts came first, a retry, a redelivery) is read by
 *    `_id` in its partition, merged and written back by `_id`;
 * 3. aggregated rows get one upsert each (count, first and last seen);
 * 4. the index gets one page per scope and hour with the new rows' entries, and a change page
 *    where a row's status or latest error moved.
 * One writer per store, one flush at a time: merges read-modify-write, which FerretDB does not
 * make atomic, and index pages are numbered by the writer.
 */
export function createActivityWriter(store: Store): ActivityWriter {
  const log = store.activity;
  const index = new IndexWriter(log);
  const partitionOf = (row: { _id: string; received_at: Date }) => log.hourOfRow(row._id, row.received_at.getTime());

  return {
    reset: () => index.reset(),
    async write(batch) {
      const entries: ScopedEntry[] = [];
      const changes: ScopedChange[] = [];
      const place = (row: RowDoc) => {
        for (const scope of scopesOf(row)) entries.push({ scope, hour: partitionOf(row), entry: entryOf(row) });
      };

      const fresh = batch.events.filter((e) => e.request !== null).map((e) => applyMessages(e.event_id, null, e.request, e.attempts));
      const existing = new Set<string>();
      for (const [hour, rows] of groupBy(fresh, partitionOf)) for (const id of await log.rows(hour).insertNew(rows)) existing.add(id);
      for (const row of fresh) if (!existing.has(row._id)) place(row);

      const merges = batch.events.filter((e) => e.request === null || existing.has(e.event_id));
      // one at a time: FerretDB's SQLite backend takes one writer per database (SQLITE_BUSY)
      for (const e of merges) {
        const hour = log.hourOfRow(e.event_id, Date.parse(e.request?.received_at ?? e.attempts[0]!.attempted_at));
        const rows = log.rows(hour);
        const before = await rows.get(e.event_id);
        const after = applyMessages(e.event_id, before, e.request, e.attempts);
        // A request (late, or redelivered) or a new row gets an entry: the list shows the newest
        // entry of a row. Otherwise the index learns only what changed.
        if (!before || e.request !== null) place(after);
        else if (after.status !== before.status || after.last_error !== before.last_error) {
          for (const scope of scopesOf(after)) changes.push({ scope, hour, change: changeOf(after) });
        }
        if (!before) {
          const dup = await rows.insertNew([after]);
          if (dup.length > 0) throw new Error(`activity row ${e.event_id} appeared during a flush; is a second writer running on this store?`);
        } else {
          const { _id, ...fields } = after;
          await rows.update([{ id: _id, update: { $set: fields } }]);
        }
      }

      for (const f of groupFolds(batch.folds)) {
        const minute = minuteStart(f.request.received_at);
        const id = timedId('agg', minute.getTime(), f.digest);
        const { received_at: _r, source_ip: _ip, ...fields } = requestFields(f.request);
        await log.rows(hourOf(minute.getTime())).update([
          {
            id,
            upsert: true,
            update: {
              $setOnInsert: { ...fields, received_at: minute, target_count: 0, status: 'errors', last_error: null, deliveries: {} },
              $inc: { 'aggregate.count': f.count },
              $min: { 'aggregate.first_seen': f.first_seen },
              $max: { 'aggregate.last_seen': f.last_seen },
            },
          },
        ]);
        if (!f.first) continue;
        const row = { _id: id, ...fields, received_at: minute, source_ip: null, target_count: 0, status: 'errors' as const, last_error: null, aggregate: { count: f.count, first_seen: f.first_seen, last_seen: f.last_seen }, deliveries: {} };
        place(row as RowDoc);
      }

      await index.write(entries, changes);
      return { inserted: fresh.length - existing.size, updated: merges.length, aggregated: batch.folds.length };
    },
  };
}

const scopesOf = (row: { account_id: string; endpoint_id: string }) => [accountScope(row.account_id), endpointScope(row.endpoint_id)];

const minuteStart = (iso: string): Date => new Date(`${iso.slice(0, 16)}:00.000Z`);

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

interface FoldGroup {
  digest: string;
  request: Fold['request'];
  first: boolean;
  count: number;
  first_seen: Date;
  last_seen: Date;
}

function groupFolds(folds: Fold[]): FoldGroup[] {
  const groups = new Map<string, FoldGroup>();
  for (const f of folds) {
    const at = new Date(f.request.received_at);
    const g = groups.get(f.digest);
    if (!g) {
      groups.set(f.digest, { digest: f.digest, request: f.request, first: f.first, count: 1, first_seen: at, last_seen: at });
      continue;
    }
    g.count += 1;
    g.first ||= f.first;
    if (at < g.first_seen) g.first_seen = at;
    if (at > g.last_seen) g.last_seen = at;
  }
  return [...groups.values()];
}
