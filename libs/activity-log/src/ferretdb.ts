import type { Connection } from 'mongoose';
import type { ActivityDoc } from '@relay/store';
import type { ActivityLog } from './driver';
import {
  LogCollections,
  PageCounts,
  decodePosition,
  encodePosition,
  listIndexed,
  sweepExpired,
} from './storage/internal';
import { entryMatches, scopeOf } from './reading/filter';
import { SEARCH_ROW_BUDGET, searchRows } from './reading/search';
import { createActivityWriter } from './writing/flush';
import { pipelineWriter } from './writing/pipeline';

/**
 * Most index documents one list call reads (docs/management-api.md "Activity log"). A sparse
 * filter can end a page early with a `next_cursor`; the work per call stays bounded whatever the
 * size of the log.
 */
const LIST_READ_BUDGET = 40;
/**
 * How far past now a list looks. A day directory lists its hours from the first one written to
 * the day's end, so a window reaching into the future would read each hour still to come (no
 * row can be there, beyond a gateway's clock skew) and spend the read budget on them: just after
 * midnight, the whole day's, and a first page came back empty.
 */
const LIST_AHEAD_MS = 3_600_000;

/**
 * The FerretDB driver: hourly partitions of rows and payloads read and written by `_id` only,
 * and index pages per scope (account, endpoint, status group, source-IP bucket) listed through
 * day directories (storage/keys.ts), since FerretDB serves no other query shape from an index.
 */
export function openFerretDbLog(connection: Connection, clock: { now(): number } = Date): ActivityLog {
  const collections = new LogCollections<ActivityDoc>(connection);
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
        toMs: Math.min(q.toMs, clock.now() + LIST_AHEAD_MS),
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
    writer: (opts) => pipelineWriter(createActivityWriter(collections, opts), opts, expire),
  };
}
