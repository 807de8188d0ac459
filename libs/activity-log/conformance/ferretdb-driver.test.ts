import { openActivityLog } from '@relay/activity-log';
import { DAY_MS, WRITER_OPTIONS, eventId, fileStore, payloadOf, request } from './fixtures';
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
