import { mapLimit } from '@relay/store';
import type { ActivityLog } from '@relay/activity-log';
import type { ActivityDoc } from '@relay/store';
import { BULK_RERUN_MAX_ROWS, MAX_BULK_RERUN, mayBeQuarantined } from '../domain/bulk-rerun';
import type { RerunFilter } from '../domain/bulk-rerun';
import { ERRORS_GROUP, PAGE_ROWS } from './bulk-retry-ports';

export type QuarantinedRow = ActivityDoc & { id: string };

/**
 * The quarantined requests of a filter, newest first: the Errors group of the window (pages of
 * PAGE_ROWS under the activity list's read budget), each refusal of a kept outcome read by key
 * to see whether its request was kept. `complete` is false when the window holds more than
 * MAX_BULK_RERUN of them, or more than BULK_RERUN_MAX_ROWS such refusals to read: the count is
 * then a floor.
 */
export async function quarantinedRows(
  log: ActivityLog,
  account: string,
  filter: RerunFilter,
): Promise<{ rows: QuarantinedRow[]; complete: boolean }> {
  const rows: QuarantinedRow[] = [];
  let read = 0;
  let cursor: string | null = null;
  for (;;) {
    const page = await log.list({
      ...ERRORS_GROUP,
      account,
      endpointId: filter.endpoint_id,
      fromMs: filter.from_ms,
      toMs: filter.to_ms,
      cursor,
      limit: PAGE_ROWS,
      where: (e) => mayBeQuarantined(filter, e),
    });
    const listed = page.rows.slice(0, BULK_RERUN_MAX_ROWS - read);
    read += listed.length;
    const docs = await mapLimit(listed, 4, (e) => log.row(e.event_id));
    docs.forEach((d, i) => {
      if (d && d.account_id === account && d.quarantine === 'kept') rows.push({ ...d, id: listed[i]!.event_id });
    });
    if (rows.length > MAX_BULK_RERUN) return { rows: rows.slice(0, MAX_BULK_RERUN), complete: false };
    if (page.next_cursor === null && listed.length === page.rows.length) return { rows, complete: true };
    if (read >= BULK_RERUN_MAX_ROWS) return { rows, complete: false };
    cursor = page.next_cursor;
  }
}
