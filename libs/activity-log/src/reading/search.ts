import { mapLimit } from '@relay/store';
import type { ActivityDoc } from '@relay/store';
import { payloadId } from '../storage/internal';
import type { IndexEntry, ListResult, LogCollections, Position, StoredPayload } from '../storage/internal';
import { payloadMatches, statusMatches } from './filter';
import type { ActivityListQuery } from '../driver';

/**
 * Most rows one payload or response-status search reads per call (docs/management-api.md
 * "Activity log"): each is a read of the row's payload or attempts beside its index entry. Past
 * it the call answers what it found with a `next_cursor` ("Search older" in the dashboard), so a
 * call costs the same at a thousand rows or a million.
 */
export const SEARCH_ROW_BUDGET = 100;
/** hourly partitions read at once */
const HOURS_AT_ONCE = 4;

/**
 * The candidates a list call found (`listed`, at most SEARCH_ROW_BUDGET entries the cheap filters
 * kept) narrowed by what only the row holds: the payload's content, the attempts' response
 * statuses. Reads by key only, one `_id` read per candidate (the log's `<event_id>~p` payload
 * documents and its rows; storage/keys.ts). The page ends at `limit` matches, its cursor at
 * the last candidate read, so the next call reads on from there.
 */
export async function searchRows(
  log: LogCollections<ActivityDoc>,
  q: ActivityListQuery,
  listed: ListResult,
): Promise<{ entries: IndexEntry[]; next: Position | null }> {
  const byHour = new Map<string, string[]>();
  for (const e of listed.entries) {
    const hour = log.hourOfRow(e.event_id, e.received_ms);
    byHour.set(hour, [...(byHour.get(hour) ?? []), e.event_id]);
  }
  const payloads = new Map<string, string>();
  const statuses = new Map<string, Array<number | null>>();
  await mapLimit([...byHour], HOURS_AT_ONCE, async ([hour, ids]) => {
    if (q.payload !== null) {
      for (const doc of await log.payloads(hour).getMany(ids.map(payloadId))) {
        payloads.set(doc._id.slice(0, -'~p'.length), (JSON.parse(doc.p) as StoredPayload).payload.body_base64);
      }
    }
    if (q.responseStatus !== null) {
      for (const [id, { row }] of await log.rowsWithLate(hour, ids)) {
        statuses.set(
          id,
          Object.values(row.deliveries ?? {}).flatMap((d) => Object.values(d.attempts ?? {}).map((a) => a.status_code)),
        );
      }
    }
  });

  const matches = (id: string): boolean => {
    if (q.payload !== null && !(payloads.has(id) && payloadMatches(q.payload, payloads.get(id)!))) return false;
    if (q.responseStatus !== null && !(statuses.get(id) ?? []).some((code) => statusMatches(q.responseStatus!, code)))
      return false;
    return true;
  };
  const entries: IndexEntry[] = [];
  for (let k = 0; k < listed.entries.length; k++) {
    if (!matches(listed.entries[k]!.event_id)) continue;
    entries.push(listed.entries[k]!);
    if (entries.length === q.limit && k < listed.entries.length - 1) return { entries, next: listed.positions[k]! };
  }
  return { entries, next: listed.next };
}
