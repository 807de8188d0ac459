import amqp from 'amqplib';
import {
  BrokerConnection,
  BrokerUnavailableError,
  ConfirmPublisher,
  DeliveryPublisher,
  DeliveryQueueUnavailableError,
} from '@relay/broker';
import { brokerNames, decodeMessage, DELIVERY_V1, orderedPartitionOf } from '@relay/contracts';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { deleteBrokerNamespace, infra, testNamespace } from '../../support/infra';
import { testLogger } from '../../support/logger';

/*
 * The one delivery publisher (libs/broker) that the gateway, the management API's resends and
 * bulk retries, the deliverers' retries and dead letters, and the redrive command all use:
 * where each kind of publish lands, with which message id, and what a broker failure becomes.
 */
const { namespace } = testNamespace('dlvpub');
const names = brokerNames(namespace);
const { logger } = testLogger('delivery-publisher-test');
const TIER_MS = 60_000;

const delivery = (id: string, attempt = 1): DeliveryMessageV1 => ({
  type: DELIVERY_V1,
  event_id: 'evt_1',
  delivery_id: id,
  attempt,
  account_id: 'acc',
  endpoint_id: 'ep',
  target_id: 'tg',
  target_kind: 'webhook',
  received_at: '2030-01-01T00:00:00.000Z',
  request: { method: 'POST', source_ip: '127.0.0.1', headers: {}, query: '' },
  payload: { content_type: null, body_base64: '' },
});

let broker: BrokerConnection;
let deliveries: DeliveryPublisher;

beforeAll(async () => {
  broker = new BrokerConnection({
    url: infra.rabbitmqUrl,
    logger,
    connectionName: 'delivery-publisher-test',
    topology: { namespace, deliveryLimit: 5, retryDelaysMs: { webhook: [TIER_MS] } },
  });
  await broker.start();
  deliveries = new DeliveryPublisher(new ConfirmPublisher(broker, 5000), namespace);
});

afterAll(async () => {
  await broker.close();
  await deleteBrokerNamespace(namespace);
});

/** Every message in `queue` now, taken off it (bounded: the test publishes a handful). */
async function take(queue: string): Promise<amqp.GetMessage[]> {
  const conn = await amqp.connect(infra.rabbitmqUrl);
  const ch = await conn.createChannel();
  const out: amqp.GetMessage[] = [];
  for (let i = 0; i < 100; i++) {
    const m = await ch.get(queue, { noAck: true });
    if (!m) break;
    out.push(m);
  }
  await conn.close();
  return out;
}

describe('DeliveryPublisher (real RabbitMQ)', () => {
  it('publish: each delivery to its channel’s work queue, confirmed, persistent, message id <delivery_id>.<attempt>', async () => {
    await deliveries.publish([
      { message: delivery('dlv_a'), channel: 'webhook' },
      { message: delivery('dlv_b', 3), channel: 'chat' },
    ]);
    const [webhook] = await take(names.deliveryQueue('webhook'));
    const [chat] = await take(names.deliveryQueue('chat'));
    expect(webhook!.properties).toMatchObject({ messageId: 'dlv_a.1', type: DELIVERY_V1, deliveryMode: 2 });
    expect(chat!.properties.messageId).toBe('dlv_b.3');
    expect(decodeMessage(chat!.content, [DELIVERY_V1])).toMatchObject({ delivery_id: 'dlv_b', attempt: 3 });
  });

  it('publish: a delivery with an ordering key to the ordered partition of its target and key, in publish order (docs/ordering.md)', async () => {
    const keyed = (id: string, key: string) => ({ ...delivery(id), order_key: key });
    const k = orderedPartitionOf('tg', 'order-7');
    for (const id of ['dlv_o1', 'dlv_o2', 'dlv_o3'])
      await deliveries.publish([{ message: keyed(id, 'order-7'), channel: 'webhook' }]);
    // a queue with a single active consumer answers no basic.get: consumed instead
    const conn = await amqp.connect(infra.rabbitmqUrl);
    const got: amqp.ConsumeMessage[] = [];
    try {
      const ch = await conn.createChannel();
      await new Promise<void>((resolve) => {
        void ch.consume(
          names.orderedQueue('webhook', k),
          (m) => {
            if (m) got.push(m);
            if (got.length === 3) resolve();
          },
          { noAck: true },
        );
      });
    } finally {
      await conn.close();
    }
    expect(got.map((m) => m.properties.messageId)).toEqual(['dlv_o1.1', 'dlv_o2.1', 'dlv_o3.1']);
    expect(decodeMessage(got[0]!.content, [DELIVERY_V1])).toMatchObject({ order_key: 'order-7' });
    expect(await take(names.deliveryQueue('webhook'))).toEqual([]);
  });

  it('retry: to the tier’s TTL queue with its headers; tier 0 straight back to the work queue', async () => {
    await deliveries.retry(delivery('dlv_r', 2), 'webhook', TIER_MS, { 'x-relay-schedule-base': 1 });
    await deliveries.retry(delivery('dlv_now', 2), 'webhook', 0, { 'x-relay-schedule-base': 1 });
    const [tiered] = await take(names.retryQueue('webhook', TIER_MS));
    expect(tiered!.properties.messageId).toBe('dlv_r.2');
    expect(tiered!.properties.headers).toMatchObject({ 'x-relay-schedule-base': 1 });
    expect((await take(names.deliveryQueue('webhook'))).map((m) => m.properties.messageId)).toEqual(['dlv_now.2']);
  });

  it('deadLetter: to the channel’s dead-letter queue as <delivery_id>.<attempt>.dead, with the reason headers', async () => {
    await deliveries.deadLetter(delivery('dlv_d', 4), 'webhook', { 'x-relay-dead-reason': 'permanent' });
    const [dead] = await take(names.deadDeliveryQueue('webhook'));
    expect(dead!.properties.messageId).toBe('dlv_d.4.dead');
    expect(dead!.properties.headers).toMatchObject({ 'x-relay-dead-reason': 'permanent' });
  });

  it('a broker failure rejects with DeliveryQueueUnavailableError (code delivery_queue_unavailable), the broker’s reason as its cause', async () => {
    // no queue is bound for this tier: the mandatory publish comes back unroutable
    const err = await deliveries.retry(delivery('dlv_x'), 'webhook', 1234, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeliveryQueueUnavailableError);
    expect((err as DeliveryQueueUnavailableError).code).toBe('delivery_queue_unavailable');
    expect((err as Error).cause).toBeInstanceOf(BrokerUnavailableError);
    expect(((err as Error).cause as BrokerUnavailableError).reason).toBe('unroutable');
  });

  it('a closed connection: every delivery of a publish rejects with the same error', async () => {
    const gone = new BrokerConnection({
      url: infra.rabbitmqUrl,
      logger,
      connectionName: 'delivery-publisher-test-closed',
      topology: { namespace, deliveryLimit: 5 },
    });
    await gone.start();
    await gone.close();
    const closed = new DeliveryPublisher(new ConfirmPublisher(gone, 500), namespace);
    await expect(closed.publish([{ message: delivery('dlv_c'), channel: 'webhook' }])).rejects.toBeInstanceOf(
      DeliveryQueueUnavailableError,
    );
  });
});
