import { isDeepStrictEqual } from 'node:util';
import type { AnyBulkWriteOperation } from 'mongodb';
import type { Connection } from 'mongoose';
import { STATEMENTS_PER_COMMAND, keyedCollection } from '@relay/store';
import type { ActivityDoc } from '@relay/store';
import type { ActivityListQuery, ActivityLog, ActivityPage, FlushStats, ListedRow, StoredPayload } from '../driver';
import { entryMatches, payloadMatches, statusMatches } from '../reading/filter';
import { SEARCH_ROW_BUDGET } from '../reading/search';
import { groupFolds } from '../writing/flood';
import type { ActivityWriter } from '../writing/flusher';
import { pipelineWriter } from '../writing/pipeline';
import { aggregation, applyMessages, entryOf } from '../writing/row';
import { decodeRowCursor, encodeRowCursor } from './cursor';
import { NEWEST_FIRST, collectionsOn, decodeStored, encodeRow, ensureIndexes, listFilter } from './rows';
import type { LogCollections, PayloadDocument, RowDocument } from './rows';

/** Rows one list call reads at most; a sparse filter ends its page there with a `next_cursor`. */
const ROWS_READ_BUDGET = 1000;
/** Rows read per query of a list call. */
const ROWS_PER_READ = 200;

/**
 * The MongoDB driver: one collection of rows with a compound index per filter of the list
 * (rows.ts), payloads beside them, and a TTL index that expires both after the retention
 * period. A row is read, merged and replaced whole by `_id` when its messages come; the writer
 * keeps nothing of the store in memory, so a partition handed over needs no resync.
 */
export function openMongoDbLog(connection: Connection): ActivityLog {
  const c = collectionsOn(connection);
  const payloads = keyedCollection(c.payloads);
  const expire = async (nowMs: number, retentionMs: number): Promise<string[]> => {
    // what the TTL index has not removed yet (it runs once a minute)
    const cut = { received_at: { $lt: new Date(nowMs - retentionMs) } };
    await c.rows.deleteMany(cut);
    await c.payloads.deleteMany(cut);
    return [];
  };
  return {
    list: (q) => list(c, q),
    async row(eventId) {
      const doc = await c.rows.findOne({ _id: eventId });
      return doc ? decodeStored(doc) : null;
    },
    async payload(eventId) {
      const doc = await payloads.get(eventId);
      return doc ? (JSON.parse(doc.p) as StoredPayload) : null;
    },
    expire,
    writer(opts) {
      let indexed: Promise<void> | null = null;
      // created before the first flush; a failure fails that flush (requeued) and is tried again
      const ready = () =>
        (indexed ??= ensureIndexes(connection, c, opts.retentionMs).catch((err: unknown) => {
          indexed = null;
          throw err;
        }));
      return pipelineWriter(flushWriter(c, ready), opts, expire);
    },
  };
}

async function list(c: LogCollections, q: ActivityListQuery): Promise<ActivityPage> {
  let after = q.cursor === null ? null : decodeRowCursor(q.cursor);
  if (q.cursor !== null && after === null) throw new Error('not a list cursor (isCursor)');
  const rows: ListedRow[] = [];
  // a payload search reads each row's payload too: as many as the FerretDB driver's search reads
  const budget = q.payload === null ? ROWS_READ_BUDGET : SEARCH_ROW_BUDGET;
  for (let read = 0; read < budget;) {
    const want = Math.min(ROWS_PER_READ, budget - read);
    const docs = await c.rows.find(listFilter(q, after), { sort: NEWEST_FIRST, limit: want }).toArray();
    read += docs.length;
    const found = docs.map((doc) => decodeStored(doc));
    const listed = found.map((row) => entryOf(row)).filter((e) => entryMatches(q, e));
    const bodies = q.payload === null ? null : await payloadsOf(c, listed);
    const statusCodes = new Map(found.map((row) => [row._id, attemptStatuses(row)]));
    const matches = (e: ListedRow): boolean =>
      (q.payload === null || payloadMatches(q.payload, bodies!.get(e.event_id) ?? '')) &&
      (q.responseStatus === null || statusCodes.get(e.event_id)!.some((s) => statusMatches(q.responseStatus!, s)));
    const last = docs.length === want;
    for (const [k, e] of listed.entries()) {
      if (!matches(e)) continue;
      rows.push(e);
      if (rows.length === q.limit) {
        const more = last || listed.slice(k + 1).some(matches);
        return { rows, next_cursor: more ? encodeRowCursor(e.received_ms, e.event_id) : null };
      }
    }
    if (!last) return { rows, next_cursor: null };
    const tail = docs[docs.length - 1]!;
    after = { at: tail.received_at, id: tail._id };
  }
  return { rows, next_cursor: encodeRowCursor(after!.at.getTime(), after!.id) };
}

/** The kept payload bodies (base64) of these rows, by event id: one read by `_id`s. */
async function payloadsOf(c: LogCollections, rows: ListedRow[]): Promise<Map<string, string>> {
  if (rows.length === 0) return new Map();
  const docs = await c.payloads.find({ _id: { $in: rows.map((r) => r.event_id) } }).toArray();
  return new Map(docs.map((d) => [d._id, (JSON.parse(d.p) as StoredPayload).payload.body_base64]));
}

const attemptStatuses = (row: ActivityDoc): Array<number | null> =>
  Object.values(row.deliveries ?? {}).flatMap((d) => Object.values(d.attempts ?? {}).map((a) => a.status_code));

/**
 * Writes a flush: payloads inserted (a copy already there stays), the flush's rows read by
 * `_id`, their messages merged (applyMessages: any order, redelivery idempotent) and each
 * changed row replaced whole, aggregated rows upserted with their counts. One writer per
 * account at a time (the broker's partitions), so a read-merge-replace sees no other writer.
 * Nothing is held across flushes: every write is listed once it is acknowledged.
 */
function flushWriter(c: LogCollections, ready: () => Promise<void>): ActivityWriter {
  const payloads = keyedCollection(c.payloads);
  return {
    heldSince: () => null,
    writeHeld: async () => undefined,
    reset: () => undefined,
    resync: () => undefined,
    probes: () => 0,
    async write(batch): Promise<FlushStats> {
      await ready();
      await payloads.insertNew(
        (batch.payloads ?? []).map((p): PayloadDocument => ({
          _id: p.event_id,
          received_at: new Date(p.received_at),
          p: JSON.stringify({ request: p.request, payload: p.payload }),
        })),
      );
      const ids = batch.events.map((e) => e.event_id);
      const stored = ids.length === 0 ? [] : await c.rows.find({ _id: { $in: ids } }).toArray();
      const before = new Map(stored.map((doc) => [doc._id, decodeStored(doc)]));
      const ops: AnyBulkWriteOperation<RowDocument>[] = [];
      const stats: FlushStats = {
        inserted: 0,
        updated: 0,
        late: 0,
        aggregated: batch.folds.length,
        payloads: batch.payloads?.length ?? 0,
      };
      for (const e of batch.events) {
        const was = before.get(e.event_id) ?? null;
        const row = applyMessages(e.event_id, was, e.request, e.attempts);
        if (was && isDeepStrictEqual(row, was)) continue;
        ops.push({ replaceOne: { filter: { _id: row._id }, replacement: encodeRow(row), upsert: true } });
        before.set(row._id, row);
        if (was) stats.updated += 1;
        else stats.inserted += 1;
      }
      for (const f of groupFolds(batch.folds)) {
        const { id, update } = aggregation(f);
        const { _id, ...created } = encodeRow({ ...(update.$setOnInsert as ActivityDoc), _id: id });
        ops.push({ updateOne: { filter: { _id }, update: { ...update, $setOnInsert: created }, upsert: true } });
      }
      // in commands of a few statements: FerretDB (npm start's store) answers none of more
      // statements than its backend pool, and the split costs MongoDB a few round trips a flush
      for (let i = 0; i < ops.length; i += STATEMENTS_PER_COMMAND)
        await c.rows.bulkWrite(ops.slice(i, i + STATEMENTS_PER_COMMAND), { ordered: true });
      return stats;
    },
  };
}
