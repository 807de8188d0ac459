import amqp from 'amqplib';
import { openActivityLog } from '@relay/activity-log';
import type { ActivityLogWriter } from '@relay/activity-log';
import { BrokerConnection, ConfirmPublisher, createActivityPublisher } from '@relay/broker';
import { ACTIVITY_PARTITIONS, activityPartitionOf, brokerNames } from '@relay/contracts';
import type { ActivityMessage } from '@relay/contracts';
import { connectStore } from '@relay/store';
import type { Store } from '@relay/store';
import { createActivityConsumers } from '../../../services/activity-writer/src/transport/consumer';
import type { ActivityConsumers } from '../../../services/activity-writer/src/transport/consumer';
import { deleteBrokerNamespace, eventually, infra, testNamespace } from '../../support/infra';
import { testLogger } from '../../support/logger';
import { activityRecordsOf } from '../../support/activity-messages';
import { DAY_MS, attempt, eventId, listQuery, request, row } from '../../../libs/activity-log/conformance/fixtures';

/**
 * Partitioned writing (docs/architecture.md "Partitioned writing") on the real broker and store:
 * records go to their account's partition queue, each partition queue has one active consumer,
 * several writers share the partitions, and a writer's partitions go to another when it stops.
 */
const ns = testNamespace('actparts');
const names = brokerNames(ns.namespace);
const { logger } = testLogger();

interface Writer {
  store: Store;
  broker: BrokerConnection;
  consumers: ActivityConsumers;
  /** accounts whose records this writer was given */
  accounts: Set<string>;
}

async function startWriter(
  label: string,
  balanceMs = 0,
  hold: { indexWaitMs?: number; indexMaxWaitMs?: number; maxWaitMs?: number } = {},
): Promise<Writer> {
  const store = await connectStore(ns.mongodbUrl);
  const broker = new BrokerConnection({
    url: infra.rabbitmqUrl,
    connectionName: `test writer ${label}`,
    logger,
    topology: { namespace: ns.namespace, deliveryLimit: 20 },
  });
  await broker.start();
  const inner = openActivityLog(store.connection, 'ferretdb').writer({
    holdMs: 100,
    maxHeld: 1000,
    batchSize: 1000,
    maxWaitMs: 20,
    payloadMessagesPerFlush: 16,
    keepPerMinute: 10,
    retentionMs: 30 * DAY_MS,
    ...hold,
  });
  const accounts = new Set<string>();
  const writer: ActivityLogWriter = {
    ...inner,
    write: (records: ActivityMessage[]) => {
      for (const r of records) accounts.add(r.account_id);
      return inner.write(records);
    },
  };
  const consumers = createActivityConsumers(
    broker,
    writer,
    createActivityPublisher(new ConfirmPublisher(broker, 5000), ns.namespace),
    { namespace: ns.namespace, prefetch: 64, logger, balanceMs },
  );
  await consumers.start();
  return { store, broker, consumers, accounts };
}

async function stopWriter(w: Writer): Promise<void> {
  await w.consumers.stop(2000);
  await w.broker.close();
  await w.store.close();
}

let producer: BrokerConnection;
let publisher: ConfirmPublisher;
let reader: Store;
const writers: Writer[] = [];

beforeAll(async () => {
  producer = new BrokerConnection({
    url: infra.rabbitmqUrl,
    connectionName: 'test activity producer',
    logger,
    topology: { namespace: ns.namespace, deliveryLimit: 20 },
  });
  await producer.start();
  publisher = new ConfirmPublisher(producer, 5000);
  reader = await connectStore(ns.mongodbUrl);
});
afterAll(async () => {
  for (const w of writers) await stopWriter(w).catch(() => undefined);
  await producer.close();
  await deleteBrokerNamespace(ns.namespace);
  await reader.connection.dropDatabase();
  await reader.close();
});

/** accounts spread over every partition: the first account id found for each */
const ACCOUNTS = Array.from({ length: ACTIVITY_PARTITIONS }, (_, k) => {
  for (let i = 0; i < 10_000; i++) if (activityPartitionOf(`acc_p${i}`) === k) return `acc_p${i}`;
  throw new Error(`no account for partition ${k}`);
});

const events = (label: string, n: number) =>
  Array.from({ length: n }, (_, i) => {
    const account = ACCOUNTS[i % ACCOUNTS.length]!;
    const id = eventId(`${label}_${i}`);
    return {
      id,
      account,
      records: [
        request(id, { account_id: account, endpoint_id: `ep_${account}`, target_count: 1 }),
        attempt(id, 'tg_1', 1, 'delivered', { account_id: account, endpoint_id: `ep_${account}` }),
      ],
    };
  });

describe('activity partitions on the real broker and store', () => {
  it("the publisher sends every record of a request to its account's partition queue, and nowhere else", async () => {
    const conn = await amqp.connect(infra.rabbitmqUrl);
    try {
      const ch = await conn.createChannel();
      // declared by the producer's topology; nobody consumes yet
      const activity = createActivityPublisher(publisher, ns.namespace);
      const sent = events('routing', 16);
      await Promise.all(sent.flatMap((e) => e.records).map((r) => activity.publish(r)));
      // (a queue with a single active consumer serves no basic.get: consume it)
      const seen = new Map<string, number>();
      const wrong: string[] = [];
      for (let k = 0; k < ACTIVITY_PARTITIONS; k++) {
        await ch.consume(names.activityPartitionQueue(k), (msg) => {
          if (!msg) return;
          for (const r of activityRecordsOf(msg.content)) {
            if (activityPartitionOf(r.account_id) !== k) wrong.push(`${r.event_id} in p${k}`);
            seen.set(r.event_id, (seen.get(r.event_id) ?? 0) + 1);
          }
          ch.ack(msg);
        });
      }
      await eventually(
        async () => [...seen.values()].reduce((a, n) => a + n, 0) === 32,
        10_000,
        'every record consumed',
      );
      expect(wrong).toEqual([]);
      expect(seen.size).toBe(16);
      expect([...seen.values()].every((n) => n === 2)).toBe(true);
      expect((await ch.checkQueue(names.activityQueue)).messageCount).toBe(0);
    } finally {
      await conn.close();
    }
  });

  it('two writers share the partitions, one writer per partition; when one stops, the other takes its partitions and every row is written once', async () => {
    // (no balancing here: which writer has which partition stays as the broker gave them)
    writers.push(await startWriter('a'));
    writers.push(await startWriter('b'));
    const [a, b] = writers as [Writer, Writer];
    const activity = createActivityPublisher(publisher, ns.namespace);
    const first = events('shared', 64);
    await Promise.all(first.flatMap((e) => e.records).map((r) => activity.publish(r)));
    for (const e of first)
      await eventually(async () => (await row(reader, e.id))?.status === 'completed', 15_000, `row ${e.id}`);
    // the broker gave each partition to one of them: no account was written by both
    expect([...a.accounts].filter((acc) => b.accounts.has(acc))).toEqual([]);
    expect(a.accounts.size + b.accounts.size).toBe(ACCOUNTS.length);

    // a stops: its partitions go to b
    await stopWriter(a);
    writers.shift();
    b.accounts.clear();
    const second = events('after_stop', 64);
    await Promise.all(second.flatMap((e) => e.records).map((r) => activity.publish(r)));
    for (const e of second)
      await eventually(async () => (await row(reader, e.id))?.status === 'completed', 15_000, `row ${e.id}`);
    expect(b.accounts.size).toBe(ACCOUNTS.length);
    for (const e of [...first, ...second]) expect((await row(reader, e.id))!.deliveries).toHaveLength(1);

    // and every account's list shows its rows once
    const log = openActivityLog(reader.connection, 'ferretdb');
    for (const account of ACCOUNTS) {
      const page = await log.list(listQuery(account, { fromMs: Date.now() - 3_600_000 }));
      const ids = page.rows.map((r) => r.event_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(
        [...first, ...second]
          .filter((e) => e.account === account)
          .map((e) => e.id)
          .sort(),
      );
    }
  });

  it('a writer started after another gets its share: the first gives partitions away while traffic flows, and every row is written once', async () => {
    for (const w of writers.splice(0)) await stopWriter(w);
    const first = await startWriter('first', 300);
    writers.push(first);
    const activity = createActivityPublisher(publisher, ns.namespace);
    // the first writer alone has every partition
    const warm = events('alone', 16);
    await Promise.all(warm.flatMap((e) => e.records).map((r) => activity.publish(r)));
    for (const e of warm)
      await eventually(async () => (await row(reader, e.id))?.status === 'completed', 15_000, `row ${e.id}`);
    const second = await startWriter('second', 300);
    writers.push(second);
    // steady traffic until the second writer writes some partitions (bounded in rounds and time)
    const sent: ReturnType<typeof events> = [];
    for (let round = 0; round < 100 && second.accounts.size === 0; round++) {
      const batch = events(`spread${round}`, 16);
      sent.push(...batch);
      await Promise.all(batch.flatMap((e) => e.records).map((r) => activity.publish(r)));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(second.accounts.size).toBeGreaterThan(0);
    for (const e of sent)
      await eventually(async () => (await row(reader, e.id))?.status === 'completed', 15_000, `row ${e.id}`);
    for (const e of sent) expect((await row(reader, e.id))!.deliveries).toHaveLength(1);
    // after the spread, each writer is given its own partitions' records only
    first.accounts.clear();
    second.accounts.clear();
    const after = events('after_spread', 64);
    await Promise.all(after.flatMap((e) => e.records).map((r) => activity.publish(r)));
    for (const e of after)
      await eventually(async () => (await row(reader, e.id))?.status === 'completed', 15_000, `row ${e.id}`);
    expect(first.accounts.size).toBeGreaterThan(0);
    expect(second.accounts.size).toBeGreaterThan(0);
  });

  it('a partition whose index entries are held keeps flowing: single-record messages past the prefetch are written long before the hold ends', async () => {
    for (const w of writers.splice(0)) await stopWriter(w);
    // a minute's index hold and flush wait: without a write when the partition's prefetch (64 / 8
    // partitions = 8 messages) is nearly all in hand, no message past the eighth would come
    // before then, since a message is acked only once its index entries are written
    const w = await startWriter('held', 0, { indexWaitMs: 60_000, indexMaxWaitMs: 60_000, maxWaitMs: 60_000 });
    writers.push(w);
    const activity = createActivityPublisher(publisher, ns.namespace);
    const account = ACCOUNTS[3]!;
    const ids = Array.from({ length: 120 }, (_, i) => eventId(`held_${i}`));
    // one record a message, as a gateway sends them under light traffic
    for (const id of ids)
      await activity.publish(request(id, { account_id: account, endpoint_id: `ep_${account}`, target_count: 0 }));
    // half the hold: each check reads 120 rows by id, which takes seconds on a busy machine
    await eventually(
      async () => (await Promise.all(ids.map((id) => row(reader, id)))).every((r) => r !== null),
      30_000,
      'all 120 rows, well inside the minute',
    );
    const ch = await producer.openChannel();
    try {
      expect((await ch.checkQueue(names.activityPartitionQueue(activityPartitionOf(account)))).messageCount).toBe(0);
    } finally {
      await ch.close();
    }
  });
});
