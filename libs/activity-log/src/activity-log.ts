import type { Connection } from 'mongoose';
import type { ActivityMessage, StoredPayloadV1 } from '@relay/contracts';
import type { ActivityDoc } from '@relay/store';
import {
  LogCollections,
  PageCounts,
  decodePosition,
  encodePosition,
  listIndexed,
  sweepExpired,
} from './storage/internal';
import type { StoredPayload } from './storage/internal';
import { entryMatches, scopeOf } from './reading/filter';
import type { ActivityListQuery, ListedRow } from './reading/filter';
import { SEARCH_ROW_BUDGET, searchRows } from './reading/search';
import { createActivityWriter } from './writing/flush';
import type { ActivityWriterOptions, FlushStats } from './writing/flush';
import { ActivityPipeline } from './writing/pipeline';
import type { PipelineOptions } from './writing/pipeline';

/**
 * Most index documents one list call reads (docs/management-api.md "Activity log"). A sparse
 * filter can end a page early with a `next_cursor`; the work per call stays bounded whatever the
 * size of the log.
 */
export const LIST_READ_BUDGET = 40;

export interface ActivityPage {
  rows: ListedRow[];
  /** where the next call continues (its `cursor`); null when the window holds nothing more */
  next_cursor: string | null;
}

/**
 * The Request activity log (docs/architecture.md "Activity log storage"): one row per request
 * received, merged from the gateway's record and the deliverers' attempts, listed newest first
 * by filter. How rows, index pages and payloads are laid out in the store is this library's own
 * business; nothing outside it names a page, a scope or a counter.
 */
export interface ActivityLog {
  /** One page of rows matching the query, newest first; bounded reads whatever the log holds. */
  list(query: ActivityListQuery): Promise<ActivityPage>;
  /** A row with every attempt merged in, or null (unknown, not written yet, or expired). */
  row(eventId: string): Promise<ActivityDoc | null>;
  /** An accepted event's request and payload as kept for resends, or null. */
  payload(eventId: string): Promise<StoredPayload | null>;
  /** Drops what is older than the retention period; returns what it dropped. */
  expire(nowMs: number, retentionMs: number): Promise<string[]>;
  /** The writing side: one per writer process (ActivityLogWriter). */
  writer(opts: ActivityLogWriterOptions): ActivityLogWriter;
}

export type ActivityLogWriterOptions = PipelineOptions & ActivityWriterOptions;
export type { FlushStats };

/**
 * Writes records into the log. Each call's promise resolves once every record it carried is
 * durable in the store and in the log's index (the consumer acknowledges then), and rejects when
 * the write failed (the consumer requeues; writing the same records again is idempotent).
 */
export interface ActivityLogWriter {
  write(records: ActivityMessage[]): Promise<void>;
  /** accepted events' payloads, kept with their rows for resends */
  writePayloads(payloads: StoredPayloadV1[]): Promise<void>;
  /** retention, run between flushes (never while one writes into a partition being dropped) */
  expire(nowMs: number, retentionMs: number): Promise<string[]>;
  /** records taken and not yet durable */
  unwritten(): number;
  /** how many page counts this writer has probed in the store so far (each about 2·log2(pages) reads): what a restart or a partition taken costs */
  indexProbes(): number;
  /** age in seconds of the oldest record not yet durable (0 when none) */
  lagSeconds(): number;
  /** writes everything held (shutdown) */
  drain(): Promise<void>;
  /**
   * writes everything taken so far of one activity partition, held rows and index entries
   * included, and settles its write() calls (before giving the partition away, or when the
   * broker's prefetch for it is nearly all in hand); the other partitions' held rows and entries
   * stay held
   */
  settle(partition: number): Promise<void>;
  /**
   * This writer now receives the records of an activity partition (`activityPartitionOf` of the
   * account) another writer may have written before (the broker gave it the partition): it
   * forgets what it knew of the store about that partition's accounts, and reads it again where
   * needed. What it knows of its other partitions stays.
   */
  resync(partition: number): void;
  /**
   * Records taken and not yet durable will come again, perhaps to another writer (the broker
   * connection dropped): they are dropped unwritten and their write() calls reject.
   */
  abandon(err: Error): void;
}

const opened = new WeakMap<Connection, ActivityLog>();

/**
 * The activity log on a store connection (@relay/store `Store.connection`). One per connection:
 * its collection handles and remembered page counts are shared by everyone who opens it.
 */
export function openActivityLog(connection: Connection): ActivityLog {
  let log = opened.get(connection);
  if (!log) {
    log = createLog(new LogCollections<ActivityDoc>(connection));
    opened.set(connection, log);
  }
  return log;
}

function createLog(collections: LogCollections<ActivityDoc>): ActivityLog {
  const counts = new PageCounts();
  const expire = async (nowMs: number, retentionMs: number) =>
    (await sweepExpired(collections, nowMs, retentionMs)).dropped;
  return {
    async list(q) {
      const cursor = q.cursor === null ? null : decodePosition(q.cursor);
      if (q.cursor !== null && cursor === null) throw new Error('not a list cursor (isCursor)');
      // a payload or response-status search lists candidates, then reads their payloads or rows (reading/search.ts)
      const searching = q.payload !== null || q.responseStatus !== null;
      const candidates = await listIndexed(collections, {
        scope: scopeOf(q),
        fromMs: q.fromMs,
        toMs: q.toMs,
        cursor,
        limit: searching ? SEARCH_ROW_BUDGET : q.limit,
        matches: (e) => entryMatches(q, e),
        budget: LIST_READ_BUDGET,
        counts,
      });
      const page = searching ? await searchRows(collections, q, candidates) : candidates;
      return { rows: page.entries, next_cursor: page.next ? encodePosition(page.next) : null };
    },
    row: (eventId) => collections.row(eventId),
    payload: (eventId) => collections.payload(eventId),
    expire,
    writer(opts) {
      const pipeline = new ActivityPipeline(createActivityWriter(collections, opts), opts);
      return {
        write: async (records) => {
          await Promise.all(records.map((r) => pipeline.add(r)));
        },
        writePayloads: (payloads) => pipeline.addPayloads(payloads),
        expire: (nowMs, retentionMs) => pipeline.exclusive(() => expire(nowMs, retentionMs)),
        unwritten: () => pipeline.unwritten(),
        indexProbes: () => pipeline.probes(),
        lagSeconds: () => pipeline.lagSeconds(),
        drain: () => pipeline.drain(),
        settle: (partition) => pipeline.settle(partition),
        resync: (partition) => pipeline.resync(partition),
        abandon: (err) => pipeline.abandon(err),
      };
    },
  };
}

/** Whether `cursor` is a `next_cursor` this log gave out. */
export const isCursor = (cursor: string): boolean => decodePosition(cursor) !== null;
