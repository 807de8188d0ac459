import { openActivityLog } from '@relay/activity-log';
import { openFerretDbLog } from '../src/ferretdb';
import { DAY_MS, WRITER_OPTIONS, eventId, fileStore, listQuery, payloadOf, request } from './fixtures';
import { activityLogDriverSuite } from './driver-suite';

activityLogDriverSuite('ferretdb');

/** The FerretDB driver's own retention: whole hourly partitions (its pages, counts and layout: the other files here). */
const store = fileStore('ferretdb-driver');

describe('retention on the FerretDB driver', () => {
  it("drops an expired hour's partitions whole, rows and payloads alike, and names them", async () => {
    const log = openActivityLog(store().connection, 'ferretdb');
    const old = Date.parse('2026-09-01T05:10:00.000Z');
    const id = eventId('ret_partitions', old);
    const w = log.writer({ ...WRITER_OPTIONS, retentionMs: 365 * DAY_MS });
    const at = new Date(old).toISOString();
    await Promise.all([
      w.write([request(id, { received_at: at, target_count: 0 })]),
      w.writePayloads([payloadOf(id, 'acc_1', 'ep_1', at, '{}')]),
    ]);
    await w.drain();
    expect(await log.expire(Date.parse('2026-11-01T00:00:00.000Z'), 30 * DAY_MS)).toEqual(
      expect.arrayContaining(['activity_rows_2026090105', 'activity_payloads_2026090105']),
    );
    expect(await log.row(id)).toBeNull();
  });
});

describe('a list on the FerretDB driver', () => {
  it("just after midnight, a window to the day's end finds the last minutes' rows: the hours still to come are not read", async () => {
    // a day directory lists its hours from the first written to the day's end: read from the
    // window's end, the hours after now would spend the list's read budget before reaching a row
    const midnight = Date.parse('2026-10-05T00:00:00.000Z');
    // the clock runs (the writer flushes by it) from five minutes past that midnight
    const started = Date.now();
    const now = (): number => midnight + 5 * 60_000 + (Date.now() - started);
    const log = openFerretDbLog(store().connection, { now });
    const account = `acc_midnight_${Date.now()}`;
    const at = new Date(now() - 60_000).toISOString();
    const id = eventId('midnight', at);
    const w = log.writer({ ...WRITER_OPTIONS, retentionMs: 365 * DAY_MS, now });
    await w.write([request(id, { account_id: account, received_at: at })]);
    await w.drain();
    const { rows } = await log.list(listQuery(account, { fromMs: midnight - DAY_MS, toMs: midnight + DAY_MS }));
    expect(rows.map((r) => r.event_id)).toEqual([id]);
  });
});
