import { randomBytes } from 'node:crypto';
import { IndexWriter, accountScope, endpointScope, mapLimit } from '@relay/store';
import type { IndexChange, IndexEntry, ScopedChange, ScopedEntry, Store } from '@relay/store';
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

/** Rows read and written at once by key-only updates. */
const PARALLEL = 16;

/**
 * Writes one flush with key-only operations (docs/architecture.md "Activity log storage"):
 * 1. rows whose request is in the flush are inserted whole, their held attempts merged in;
 * 2. a row that already exists (attempts came first, a retry, a redelivery) is read by `_id`,
 *    merged and written back by `_id`;
 * 3. aggregated rows get one upsert each (count, first and last seen);
 * 4. the index gets an entry for each newly placed row and a change for each row whose status
 *    or error text moved.
 * One writer per store, one flush at a time: merges read-modify-write by `_id`, which FerretDB
 * does not make atomic.
 */
export function createActivityWriter(store: Store): ActivityWriter {
  const rows = store.activityRows;
  const index = new IndexWriter(store.activityIndex);
  const prefix = randomBytes(3).toString('hex');
  let flushes = 0;

  return {
    reset: () => index.reset(),
    async write(batch) {
      const generation = `${prefix}${(flushes++).toString(36)}`;
      const entries: ScopedEntry[] = [];
      const changes: ScopedChange[] = [];
      const place = (row: RowDoc) => entries.push(...scoped(row, entryOf(row, generation)));

      const fresh = batch.events.filter((e) => e.request !== null).map((e) => ({ ...applyMessages(e.event_id, null, e.request, e.attempts), ixg: generation }));
      const existing = new Set(await rows.insertNew(fresh));
      for (const row of fresh) if (!existing.has(row._id)) place(row);

      const merges = batch.events.filter((e) => e.request === null || existing.has(e.event_id));
      await mapLimit(merges, PARALLEL, async (e) => {
        const before = await rows.get(e.event_id);
        const after = applyMessages(e.event_id, before, e.request, e.attempts);
        // A request (late, or redelivered) places its row at its real time; so does a row that
        // was never placed. Otherwise the row keeps its place and the index learns the change.
        if (!before || e.request !== null || !before.ixg) {
          after.ixg = generation;
          place(after);
        } else if (after.status !== before.status || after.last_error !== before.last_error) {
          changes.push(...scoped(after, changeOf(after)).map(({ scope, entry }) => ({ scope, received_ms: after.received_at.getTime(), change: entry })));
        }
        if (!before) {
          const dup = await rows.insertNew([after]);
          if (dup.length > 0) throw new Error(`activity row ${e.event_id} appeared during a flush; is a second writer running on this store?`);
        } else {
          const { _id, ...fields } = after;
          await rows.update([{ id: _id, update: { $set: fields } }]);
        }
      });

      const folds = groupFolds(batch.folds);
      await rows.update(
        folds.map((f) => {
          const { received_at: _r, ...fields } = requestFields(f.request);
          return {
            id: f.aggregate_id,
            upsert: true,
            update: {
              $setOnInsert: { ...fields, received_at: minuteStart(f.request.received_at), source_ip: null, target_count: 0, status: 'errors', last_error: null, deliveries: {} },
              $inc: { 'aggregate.count': f.count },
              $min: { 'aggregate.first_seen': f.first_seen },
              $max: { 'aggregate.last_seen': f.last_seen },
              ...(f.first ? { $set: { ixg: generation } } : {}),
            },
          };
        }),
      );
      for (const f of folds.filter((x) => x.first)) {
        const received_ms = minuteStart(f.request.received_at).getTime();
        entries.push(
          ...scopes(f.request).map((scope) => ({
            scope,
            entry: { event_id: f.aggregate_id, received_ms, status: 'errors' as const, source_ip: null, test: f.request.test, aggregated: true, text: f.request.reason, generation },
          })),
        );
      }

      await index.write(entries, changes);
      return { inserted: fresh.length - existing.size, updated: merges.length, aggregated: batch.folds.length };
    },
  };
}

const scopes = (row: { account_id: string; endpoint_id: string }) => [accountScope(row.account_id), endpointScope(row.endpoint_id)];

function scoped<E extends IndexEntry | IndexChange>(row: RowDoc, entry: E): { scope: string; entry: E }[] {
  return scopes(row).map((scope) => ({ scope, entry }));
}

const minuteStart = (iso: string): Date => new Date(`${iso.slice(0, 16)}:00.000Z`);

interface FoldGroup {
  aggregate_id: string;
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
    const g = groups.get(f.aggregate_id);
    if (!g) {
      groups.set(f.aggregate_id, { aggregate_id: f.aggregate_id, request: f.request, first: f.first, count: 1, first_seen: at, last_seen: at });
      continue;
    }
    g.count += 1;
    g.first ||= f.first;
    if (at < g.first_seen) g.first_seen = at;
    if (at > g.last_seen) g.last_seen = at;
  }
  return [...groups.values()];
}
