import type { EntryTuple } from './entries';
import type { IndexDoc } from './index-docs';
import { HOUR_MS, hourOf, ids, isAccountScope, startOf } from './keys';
import type { KeyedCollection } from './keyed-collection';
import { mapLimit } from './keyed-collection';

export interface SweepResult {
  hours: number;
  rows: number;
  index_docs: number;
  /** the oldest hour still kept, or null when nothing is stored */
  cursor: string | null;
}

/**
 * Deletes every row and index document of the hours older than `retentionMs`, oldest hour
 * first, at most `maxHours` per call. Each hour's sweep document names the scopes written that
 * hour; their pages name the rows. So the cost is proportional to what expires, never to what
 * is kept. Rows are deleted through the account scopes (each row is in exactly one); endpoint
 * scopes only lose their index documents.
 */
export async function sweepExpired(
  index: KeyedCollection<IndexDoc>,
  rows: KeyedCollection<{ _id: string }>,
  now: number,
  retentionMs: number,
  maxHours = 24,
): Promise<SweepResult> {
  const result: SweepResult = { hours: 0, rows: 0, index_docs: 0, cursor: null };
  const cursorDoc = await index.get(ids.retentionCursor);
  if (!cursorDoc?.hour) return result;
  const expireBefore = hourOf(now - retentionMs); // hours strictly before this one expire
  let hour = cursorDoc.hour;
  while (hour < expireBefore && result.hours < maxHours) {
    const sweep = await index.get(ids.sweep(hour));
    for (const scope of sweep?.scopes ?? []) {
      const deleted = await sweepScopeHour(index, rows, scope, hour);
      result.rows += deleted.rows;
      result.index_docs += deleted.index_docs;
    }
    await index.delete([ids.sweep(hour)]);
    hour = hourOf(startOf(hour) + HOUR_MS);
    await index.update([{ id: ids.retentionCursor, update: { $set: { hour } } }]);
    result.hours += 1;
  }
  result.cursor = hour;
  return result;
}

async function sweepScopeHour(index: KeyedCollection<IndexDoc>, rows: KeyedCollection<{ _id: string }>, scope: string, hour: string): Promise<{ rows: number; index_docs: number }> {
  const hourDoc = await index.get(ids.hour(scope, hour));
  const minutes = (hourDoc?.minutes ?? []).map((m) => `${hour}:${String(m).padStart(2, '0')}`);
  let rowCount = 0;
  const docIds: string[] = [];
  await mapLimit(minutes, 8, async (minute) => {
    const head = await index.get(ids.minute(scope, minute));
    const pages = Array.from({ length: head?.pages ?? 0 }, (_, n) => ids.page(scope, minute, n));
    const changes = Array.from({ length: head?.changes ?? 0 }, (_, n) => ids.changes(scope, minute, n));
    if (isAccountScope(scope)) {
      const docs = await mapLimit(pages, 4, (id) => index.get(id));
      const rowIds = [...new Set(docs.flatMap((d) => ((d?.e ?? []) as EntryTuple[]).map((t) => t.i)))];
      await rows.delete(rowIds);
      rowCount += rowIds.length;
    }
    docIds.push(...pages, ...changes, ids.minute(scope, minute));
  });
  await index.delete([...docIds, ids.hour(scope, hour)]);
  const dayId = ids.day(scope, hour.slice(0, 10));
  await index.update([{ id: dayId, update: { $pull: { hours: Number(hour.slice(11, 13)) } } }]);
  const day = await index.get(dayId);
  if (day && (day.hours ?? []).length === 0) await index.delete([dayId]);
  return { rows: rowCount, index_docs: docIds.length + 1 };
}
