import amqp from 'amqplib';
import { BrokerConnection, ConfirmPublisher, createActivityPublisher } from '@relay/broker';
import { ACTIVITY_BATCH_V1, brokerNames, encodeMessage } from '@relay/contracts';
import { connectStore } from '@relay/store';
import type { Store } from '@relay/store';
import { openActivityLog } from '@relay/activity-log';
import { createActivityConsumers } from '../../../services/activity-writer/src/transport/consumer';
import type { ActivityConsumers } from '../../../services/activity-writer/src/transport/consumer';
import { deleteBrokerNamespace, eventually, infra, testNamespace } from '../../support/infra';
import { testLogger } from '../../support/logger';
import { attempt, eventId, request, row } from '../../../libs/activity-log/conformance/fixtures';

const ns = testNamespace('actconsumer');
const names = brokerNames(ns.namespace);
const { logger } = testLogger();
let store: Store;
let broker: BrokerConnection;
let publisher: ConfirmPublisher;
let consumer: ActivityConsumers;

beforeAll(async () => {
  store = await connectStore(ns.mongodbUrl);
  broker = new BrokerConnection({
    url: infra.rabbitmqUrl,
    connectionName: 'test activity consumer',
    logger,
    topology: { namespace: ns.namespace, deliveryLimit: 20 },
  });
  await broker.start();
  publisher = new ConfirmPublisher(broker, 5000);
  const writer = openActivityLog(store.connection, 'ferretdb').writer({
    holdMs: 200,
    maxHeld: 1000,
    batchSize: 1000,
    maxWaitMs: 20,
    payloadMessagesPerFlush: 16,
    keepPerMinute: 10,
    retentionMs: 30 * 86_400_000,
  });
  consumer = createActivityConsumers(broker, writer, createActivityPublisher(publisher, ns.namespace), {
    namespace: ns.namespace,
    prefetch: 50,
    logger,
    balanceMs: 0,
  });
  await consumer.start();
});
afterAll(async () => {
  await consumer.stop(2000);
  await broker.close();
  await deleteBrokerNamespace(ns.namespace);
  await store.connection.dropDatabase();
  await store.close();
});

async function deadLettered(): Promise<number> {
  const conn = await amqp.connect(infra.rabbitmqUrl);
  try {
    const ch = await conn.createChannel();
    return (await ch.checkQueue(names.deadActivityQueue)).messageCount;
  } finally {
    await conn.close();
  }
}

describe('activity-writer consuming the activity queue (real RabbitMQ and store)', () => {
  it('writes every record of a batch message (relay.activity.batch.v1) as its own row, requests and attempts merged', async () => {
    const activity = createActivityPublisher(publisher, ns.namespace);
    const ids = ['b1', 'b2', 'b3'].map((l) => eventId(l));
    await Promise.all(
      ids
        .flatMap((id) => [request(id, { target_count: 1 }), attempt(id, 'tg_1', 1, 'delivered')])
        .map((r) => activity.publish(r)),
    );
    for (const id of ids)
      await eventually(async () => (await row(store, id))?.status === 'completed', 10_000, `row ${id}`);
  });

  it('moves what producers of before partitions left in the old activity queue to the partitions, and writes it', async () => {
    const id = eventId('old_queue');
    const body = Buffer.from(
      JSON.stringify({
        type: ACTIVITY_BATCH_V1,
        records: [request(id, { target_count: 1 }), attempt(id, 'tg_1', 1, 'delivered')],
      }),
    );
    await publisher.publish(names.activityExchange, names.activityRoutingKey, body, {
      messageId: 'old',
      type: ACTIVITY_BATCH_V1,
    });
    await eventually(async () => (await row(store, id))?.status === 'completed', 10_000, 'row from the old queue');
  });

  it('a broken batch on a partition queue is dead-lettered into the activity dead letters', async () => {
    const before = await deadLettered();
    const id = eventId('bad_partition');
    const broken = Buffer.from(
      JSON.stringify({ type: ACTIVITY_BATCH_V1, records: [{ ...request(id), outcome: 'MADE_UP' }] }),
    );
    await publisher.publish(names.activityExchange, names.activityPartitionRoutingKey(3), broken, {
      messageId: 'broken-p3',
      type: ACTIVITY_BATCH_V1,
    });
    await eventually(async () => (await deadLettered()) === before + 1, 10_000, 'dead-lettered partition batch');
  });

  it('still reads single-record messages (what producers sent before batching)', async () => {
    const id = eventId('single');
    await publisher.publish(
      names.activityExchange,
      names.activityRoutingKey,
      encodeMessage(request(id, { outcome: 'AUTH_FAILED', reason: 'bad token', target_count: 0 })),
      { messageId: `${id}.request`, type: 'relay.activity.request.v1' },
    );
    const written = await eventually(async () => row(store, id), 10_000, 'single-record row');
    expect(written).toMatchObject({ outcome: 'AUTH_FAILED', status: 'errors' });
  });

  it('a batch delivered twice (a redelivery) leaves one row per request', async () => {
    const id = eventId('twice');
    const body = Buffer.from(
      JSON.stringify({
        type: ACTIVITY_BATCH_V1,
        records: [request(id, { target_count: 1 }), attempt(id, 'tg_1', 1, 'delivered')],
      }),
    );
    for (const messageId of ['m1', 'm2'])
      await publisher.publish(names.activityExchange, names.activityRoutingKey, body, {
        messageId,
        type: ACTIVITY_BATCH_V1,
      });
    await eventually(async () => (await row(store, id))?.status === 'completed', 10_000, 'row');
    expect((await row(store, id))!.deliveries).toHaveLength(1);
  });

  it('a batch that breaks its contract is dead-lettered at once; a producer never sends one (each record is checked alone)', async () => {
    const before = await deadLettered();
    const id = eventId('bad');
    const broken = Buffer.from(
      JSON.stringify({
        type: ACTIVITY_BATCH_V1,
        records: [request(id), { ...attempt(id, 'tg_1', 1, 'delivered'), state: 'made_up' }],
      }),
    );
    await publisher.publish(names.activityExchange, names.activityRoutingKey, broken, {
      messageId: 'broken',
      type: ACTIVITY_BATCH_V1,
    });
    await eventually(async () => (await deadLettered()) === before + 1, 10_000, 'dead-lettered batch');
    const activity = createActivityPublisher(publisher, ns.namespace);
    await expect(
      activity.publish({ ...attempt(id, 'tg_1', 1, 'delivered'), state: 'made_up' as never }),
    ).rejects.toThrow(/state|allowed/);
  });
});
