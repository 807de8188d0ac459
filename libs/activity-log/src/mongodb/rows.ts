import type { Collection, Db, Document, IndexDescription } from 'mongodb';
import type { Connection } from 'mongoose';
import type { ActivityDoc } from '@relay/store';
import type { ActivityListQuery, StatusFilter } from '../driver';
import { decodeRow } from '../storage/internal';

/** The rows' collection: one document per row, every filter and sort served by an index below. */
export const ROWS = 'activity_log_rows';
/** Accepted events' payloads, kept for resends: `_id` the event id. */
export const PAYLOADS = 'activity_log_payloads';

/**
 * A row as stored: the row's fields, with `deliveries` as one JSON text (attempts keep the
 * target's response headers, whose names may hold `.` or start with `$`; nothing filters on
 * them), and `group`, the status filter that lists it: `test` for a test request's row (never
 * Completed, Pending or Errors), else its status.
 */
export type RowDocument = Omit<ActivityDoc, 'deliveries'> & { deliveries: string; group: Exclude<StatusFilter, 'all'> };

export interface PayloadDocument {
  _id: string;
  received_at: Date;
  /** the JSON text of `{ request, payload }` (header names as the sender sent them) */
  p: string;
}

const groupOf = (row: ActivityDoc): RowDocument['group'] => (row.test === true ? 'test' : row.status);

export function encodeRow(row: ActivityDoc): RowDocument {
  return { ...row, deliveries: JSON.stringify(row.deliveries), group: groupOf(row) };
}

export function decodeStored(doc: RowDocument): ActivityDoc {
  const { group: _group, ...row } = doc;
  return decodeRow(row as unknown as ActivityDoc)!;
}

/** The newest-first order of every list: time, then id (rows of one millisecond). */
export const NEWEST_FIRST = { received_at: -1, _id: -1 } as const;

/**
 * The indexes of the rows: one per filter combination the list offers (account; endpoint;
 * status group; source IP; endpoint and status group), each ending in the list's order so a
 * page is an index range read in order with no sort. The error-text, payload and response-status
 * searches read one of these ranges and test each row (a read budget bounds them).
 */
const ROW_INDEXES: IndexDescription[] = [
  { name: 'account_time', key: { account_id: 1, ...NEWEST_FIRST } },
  { name: 'account_endpoint_time', key: { account_id: 1, endpoint_id: 1, ...NEWEST_FIRST } },
  { name: 'account_group_time', key: { account_id: 1, group: 1, ...NEWEST_FIRST } },
  { name: 'account_endpoint_group_time', key: { account_id: 1, endpoint_id: 1, group: 1, ...NEWEST_FIRST } },
  { name: 'account_ip_time', key: { account_id: 1, source_ip: 1, ...NEWEST_FIRST } },
];

/** The TTL index of rows and payloads (MongoDB deletes what is older than the retention period). */
const RETENTION_INDEX = 'retention';

/**
 * The filter of a list query on the indexed fields; the rest (error text, `where`, payload,
 * response status) is tested on each row read. `after`: the last row of the previous page.
 */
export function listFilter(q: ActivityListQuery, after: { at: Date; id: string } | null): Document {
  const filter: Document = {
    account_id: q.account,
    received_at: { $gte: new Date(q.fromMs), $lt: new Date(q.toMs) },
  };
  if (q.endpointId !== null) filter.endpoint_id = q.endpointId;
  if (q.status !== 'all') filter.group = q.status;
  if (q.sourceIp !== null) filter.source_ip = q.sourceIp;
  if (after) {
    filter.received_at.$lte = after.at;
    filter.$or = [{ received_at: { $lt: after.at } }, { _id: { $lt: after.id } }];
  }
  return filter;
}

export interface LogCollections {
  rows: Collection<RowDocument>;
  payloads: Collection<PayloadDocument>;
}

export function collectionsOn(connection: Connection): LogCollections {
  return {
    rows: connection.collection(ROWS) as unknown as Collection<RowDocument>,
    payloads: connection.collection(PAYLOADS) as unknown as Collection<PayloadDocument>,
  };
}

/** What a server answers for an index option it does not have (FerretDB 1.x: `expireAfterSeconds`). */
const NOT_IMPLEMENTED = 238;

/**
 * Creates the indexes that are missing (FerretDB 1.24 fails a `createIndexes` of an index that
 * exists) and sets the TTL of rows and payloads to the retention period, changing it in place
 * when the period changed. A server without TTL indexes (FerretDB 1.x) gets the same index
 * without one: there the writer's retention sweep (`expire`) alone removes expired rows.
 */
export async function ensureIndexes(connection: Connection, c: LogCollections, retentionMs: number): Promise<void> {
  const expireAfterSeconds = Math.ceil(retentionMs / 1000);
  for (const [coll, wanted] of [
    [c.rows, ROW_INDEXES],
    [c.payloads, []],
  ] as unknown as [Collection<Document>, IndexDescription[]][]) {
    // a collection not created yet has no indexes
    const existing = new Map((await coll.indexes().catch(() => [])).map((i) => [i.name, i]));
    const missing = wanted.filter((i) => !existing.has(i.name!));
    if (missing.length > 0) await coll.createIndexes(missing);
    const retention = existing.get(RETENTION_INDEX);
    if (!retention) {
      await coll
        .createIndex({ received_at: 1 }, { name: RETENTION_INDEX, expireAfterSeconds })
        .catch((err: { code?: number }) => {
          if (err.code !== NOT_IMPLEMENTED) throw err;
          return coll.createIndex({ received_at: 1 }, { name: RETENTION_INDEX });
        });
    } else if (retention.expireAfterSeconds !== undefined && retention.expireAfterSeconds !== expireAfterSeconds) {
      await (connection.db as Db).command({
        collMod: coll.collectionName,
        index: { name: RETENTION_INDEX, expireAfterSeconds },
      });
    }
  }
}
