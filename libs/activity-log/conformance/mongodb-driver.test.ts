import { openActivityLog } from '@relay/activity-log';
import { WRITER_OPTIONS, eventId, fileStore, listQuery, payloadOf, request } from './fixtures';
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

describe("the MongoDB driver's list", () => {
  it('reads at most 1,000 rows a call: a sparse search ends its page there with a cursor, and the next call finds the rest', async () => {
    const log = openActivityLog(store().connection, 'mongodb');
    const w = log.writer(WRITER_OPTIONS);
    const acc = 'acc_budget';
    const t = Date.now() - 30 * 60_000;
    const needle = eventId('needle', t);
    await w.write([
      request(needle, {
        account_id: acc,
        received_at: new Date(t).toISOString(),
        outcome: 'AUTH_FAILED',
        reason: 'a needle in the log',
        target_count: 0,
      }),
      ...Array.from({ length: 1050 }, (_, k) =>
        request(eventId(`hay${k}`, t + 1 + k), {
          account_id: acc,
          received_at: new Date(t + 1 + k).toISOString(),
          target_count: 0,
        }),
      ),
    ]);
    const query = listQuery(acc, { fromMs: t - 60_000, errorText: 'needle' });
    const first = await log.list(query);
    expect(first.rows).toEqual([]);
    expect(first.next_cursor).not.toBeNull();
    const second = await log.list({ ...query, cursor: first.next_cursor });
    expect(second).toEqual({ rows: [expect.objectContaining({ event_id: needle })], next_cursor: null });
    await w.drain();
  });

  it('a payload search reads 100 rows and their payloads a call, then gives a cursor', async () => {
    const log = openActivityLog(store().connection, 'mongodb');
    const w = log.writer(WRITER_OPTIONS);
    const acc = 'acc_payload_budget';
    const t = Date.now() - 40 * 60_000;
    const ids = Array.from({ length: 120 }, (_, k) => eventId(`body${k}`, t + k));
    const at = (k: number) => new Date(t + k).toISOString();
    await Promise.all([
      w.write(ids.map((id, k) => request(id, { account_id: acc, received_at: at(k), target_count: 0 }))),
      w.writePayloads(ids.map((id, k) => payloadOf(id, acc, 'ep_1', at(k), k === 0 ? '{"needle":1}' : '{}'))),
    ]);
    const query = listQuery(acc, { fromMs: t - 60_000, payload: 'needle' });
    const first = await log.list(query);
    expect(first.rows).toEqual([]);
    expect(first.next_cursor).not.toBeNull();
    const second = await log.list({ ...query, cursor: first.next_cursor });
    expect(second).toEqual({ rows: [expect.objectContaining({ event_id: ids[0] })], next_cursor: null });
    await w.drain();
  });
});
