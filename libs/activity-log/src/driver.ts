import type { ActivityMessage, StoredPayloadV1 } from '@relay/contracts';
import type { ActivityDoc, StatusGroup } from '@relay/store';

/**
 * The storage engines the activity log runs on (ACTIVITY_LOG_DRIVER): `ferretdb` lays rows out
 * in hourly partitions read by `_id` with index pages of its own, since FerretDB serves no other
 * query shape from an index; `mongodb` keeps one collection of rows with compound indexes.
 */
export const ACTIVITY_LOG_DRIVERS = ['ferretdb', 'mongodb'] as const;
export type ActivityLogDriver = (typeof ACTIVITY_LOG_DRIVERS)[number];

export const STATUS_FILTERS = ['all', 'completed', 'pending', 'errors', 'test'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/**
 * A row as the list shows it (its latest status and error applied): the Request activity
 * view's columns (spec "Activity record") plus what its filters test. Deliveries and attempts
 * are read from the row itself when one row is opened.
 */
export interface ListedRow {
  event_id: string;
  received_ms: number;
  endpoint_id: string;
  method: string | null;
  /** null on aggregated rows */
  source_ip: string | null;
  outcome: string | null;
  reason: string | null;
  status: StatusGroup;
  last_error: string | null;
  target_count: number;
  test: boolean;
  aggregated: boolean;
  /** the row delivers an alert (docs/alerts.md): the list reads its names from the row */
  alert: boolean;
  /** when the soonest delivery that failed and waits is tried again (nextAttemptMs); null: none waits */
  retry_ms: number | null;
}

/**
 * A list call in the log's words (spec "Activity record": endpoint, date window,
 * All/Completed/Pending/Errors/Test, source IP, error text; without an endpoint, the account's
 * cross-endpoint view; beyond the spec, payload content and response status).
 */
export interface ActivityListQuery {
  account: string;
  endpointId: string | null;
  /** window: from inclusive, to exclusive (ms) */
  fromMs: number;
  toMs: number;
  /** the `next_cursor` of the previous page (isCursor), or null for the newest rows */
  cursor: string | null;
  limit: number;
  status: StatusFilter;
  sourceIp: string | null;
  /** a literal, case-insensitive substring of the outcome label, reason or latest delivery error */
  errorText: string | null;
  /** a literal, case-insensitive substring of the stored payload (accepted rows) */
  payload: string | null;
  /** `503` or `5xx`, lower case: an attempt of the row answered so */
  responseStatus: string | null;
  /** a further condition on each listed row (a bulk retry's target) */
  where?: (row: ListedRow) => boolean;
}

export interface ActivityPage {
  rows: ListedRow[];
  /** where the next call continues (its `cursor`); null when the window holds nothing more */
  next_cursor: string | null;
}

/** What a resend delivers: the sender's request (credentials already removed) and the payload. */
export interface StoredPayload {
  request: { method: string; source_ip: string; headers: Record<string, string>; query: string };
  payload: { content_type: string | null; body_base64: string };
}

/**
 * The Request activity log (docs/architecture.md "Activity log storage"): one row per request
 * received, merged from the gateway's record and the deliverers' attempts, listed newest first
 * by filter. Every driver gives the same answers (conformance/driver-suite.ts); how rows are
 * laid out in the store is the driver's own business.
 */
export interface ActivityLog {
  /**
   * One page of rows matching the query, newest first; bounded reads whatever the log holds (a
   * sparse filter can end a page early with a `next_cursor`). Rejects a cursor it did not give.
   */
  list(query: ActivityListQuery): Promise<ActivityPage>;
  /** A row with every attempt merged in, or null (unknown, not written yet, or expired). */
  row(eventId: string): Promise<ActivityDoc | null>;
  /** An accepted event's request and payload as kept for resends, or null. */
  payload(eventId: string): Promise<StoredPayload | null>;
  /**
   * Removes rows and payloads older than the retention period; returns the partitions it
   * dropped (none for a driver that removes rows one by one).
   */
  expire(nowMs: number, retentionMs: number): Promise<string[]>;
  /** The writing side: one per writer process (ActivityLogWriter). */
  writer(opts: ActivityLogWriterOptions): ActivityLogWriter;
}

export interface FlushStats {
  /** new rows */
  inserted: number;
  /** rows written again (a late request, a row whose attempts came first) */
  updated: number;
  /** late attempts inserted beside their rows (FerretDB driver) */
  late: number;
  /** rejections folded into aggregated rows */
  aggregated: number;
  /** payloads kept for resends */
  payloads: number;
}

export interface ActivityLogWriterOptions {
  /** how long an accepted request's row waits for its deliveries' first attempts */
  holdMs: number;
  /** most rows held at once (bounds memory and, with prefetch, keeps attempts flowing) */
  maxHeld: number;
  /** flush once this many messages are ready */
  batchSize: number;
  /** flush at least this often while anything is ready */
  maxWaitMs: number;
  /**
   * flush once this many payload messages wait: the payload consumer's prefetch, since it gets
   * no more until these are written — waiting for `maxWaitMs` would cap payloads at a prefetch
   * a second
   */
  payloadMessagesPerFlush: number;
  /** identical rejections per endpoint and minute that keep rows of their own */
  keepPerMinute: number;
  /**
   * messages older than this are acknowledged without a write: retention already removed their
   * rows; the MongoDB driver's TTL index expires rows this long after they were received
   */
  retentionMs: number;
  now?: () => number;
  onFlush?: (stats: FlushStats & { messages: number; duration_ms: number }) => void;
  onExpired?: (message: ActivityMessage) => void;
  /** FerretDB driver (index pages): how long a sparse scope's index entries wait for later flushes' (0: never) */
  indexWaitMs?: number;
  /** FerretDB driver: longest they wait when few (a rare group's rows); at least `indexWaitMs` */
  indexMaxWaitMs?: number;
  /** FerretDB driver: a held scope's page is written once it has this many entries */
  indexPageEntries?: number;
}

/**
 * Writes records into the log. Each call's promise resolves once every record it carried is
 * durable in the store and listed (the consumer acknowledges then), and rejects when the write
 * failed (the consumer requeues; writing the same records again is idempotent).
 */
export interface ActivityLogWriter {
  write(records: ActivityMessage[]): Promise<void>;
  /** accepted events' payloads, kept with their rows for resends */
  writePayloads(payloads: StoredPayloadV1[]): Promise<void>;
  /** retention, run between flushes (never while one writes into a partition being dropped) */
  expire(nowMs: number, retentionMs: number): Promise<string[]>;
  /** records taken and not yet durable */
  unwritten(): number;
  /**
   * how many page counts this writer has probed in the store so far (FerretDB driver: each about
   * 2·log2(pages) reads): what a restart or a partition taken costs; 0 for a driver with no pages
   */
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
