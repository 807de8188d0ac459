import { openActivityLog } from '@relay/activity-log';
import { WRITER_OPTIONS, eventId, fileStore, request } from './fixtures';
import { activityLogDriverSuite } from './driver-suite';

activityLogDriverSuite('mongodb');

/** The MongoDB driver's own: its indexes, as a writer creates them. */
const store = fileStore('mongodb-driver');

const indexesOf = async (name: string) =>
  (await store().connection.collection(name).indexes()).map((i) => ({
    name: i.name,
    key: i.key,
    ...(i.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: i.expireAfterSeconds }),
  }));

describe("the MongoDB driver's indexes", () => {
  it('a writer creates one index per filter of the list, each in its newest-first order, and a retention index on rows and payloads: a TTL of the retention period, where the server has TTL indexes', async () => {
    // FerretDB 1.24 answers NotImplemented to `expireAfterSeconds`: there the index has no TTL and
    // the writer's retention sweep (`expire`, the driver suite's retention test) removes rows
    const ttl = (await store().connection.db!.admin().command({ buildInfo: 1 })).ferretdbVersion
      ? {}
      : { expireAfterSeconds: 30 * 86_400 };
    const w = openActivityLog(store().connection, 'mongodb').writer(WRITER_OPTIONS);
    await w.write([request(eventId('indexed'), { target_count: 0 })]);
    const newestFirst = { received_at: -1, _id: -1 };
    expect(await indexesOf('activity_log_rows')).toEqual(
      expect.arrayContaining([
        { name: 'account_time', key: { account_id: 1, ...newestFirst } },
        { name: 'account_endpoint_time', key: { account_id: 1, endpoint_id: 1, ...newestFirst } },
        { name: 'account_group_time', key: { account_id: 1, group: 1, ...newestFirst } },
        { name: 'account_endpoint_group_time', key: { account_id: 1, endpoint_id: 1, group: 1, ...newestFirst } },
        { name: 'account_ip_time', key: { account_id: 1, source_ip: 1, ...newestFirst } },
        { name: 'retention', key: { received_at: 1 }, ...ttl },
      ]),
    );
    expect(await indexesOf('activity_log_payloads')).toEqual(
      expect.arrayContaining([{ name: 'retention', key: { received_at: 1 }, ...ttl }]),
    );
    await w.drain();
  });
});
