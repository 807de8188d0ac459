import amqp from 'amqplib';
import { Registry } from 'prom-client';
import {
  BrokerConnection,
  ConfirmPublisher,
  deliveryQueuesOf,
  QueueStatsReader,
  registerQueueMetrics,
} from '@relay/broker';
import { brokerNames } from '@relay/contracts';
import { deleteBrokerNamespace, infra, testNamespace } from '../../support/infra';
import { testLogger } from '../../support/logger';
import { TcpProxy } from '../../support/tcp-proxy';

/**
 * Queue depth and consumer count of every work, retry and dead-letter queue,
 * read from the real broker at scrape time with a bounded cost — one reading per cache period,
 * however many scrapes ask.
 */
const { namespace } = testNamespace('queuemetrics');
const names = brokerNames(namespace);
const { logger } = testLogger('broker-test');
const TIERS = [1000, 5000];

let broker: BrokerConnection;
let publisher: ConfirmPublisher;

beforeAll(async () => {
  broker = new BrokerConnection({
    url: infra.rabbitmqUrl,
    logger,
    connectionName: 'test queue metrics',
    topology: { namespace, deliveryLimit: 5, retryDelaysMs: { webhook: TIERS } },
  });
  await broker.start();
  publisher = new ConfirmPublisher(broker, 5000);
});

afterAll(async () => {
  await broker?.close();
  await deleteBrokerNamespace(namespace, TIERS);
});

function valueOf(text: string, metric: string, queue: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${metric}{queue="${queue}"} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

async function publishN(n: number, start: number): Promise<void> {
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      publisher.publish(names.deliveriesExchange, 'webhook', Buffer.from('{}'), {
        messageId: `qm-${start + i}`,
        type: 'relay.test.v1',
      }),
    ),
  );
}

describe('queue depth and consumer metrics (real RabbitMQ)', () => {
  it('publish N, scrape: the work queue reports N messages; every queue of the channel has a series, consumers counted', async () => {
    let now = 0;
    const registry = new Registry();
    registerQueueMetrics(
      registry,
      new QueueStatsReader({
        broker,
        queues: deliveryQueuesOf(namespace, 'webhook', TIERS),
        cacheMs: 5000,
        now: () => now,
      }),
    );
    const conn = await amqp.connect(infra.rabbitmqUrl);
    try {
      const ch = await conn.createChannel();
      await ch.consume(names.deadDeliveryQueue('webhook'), () => undefined);
      await publishN(7, 0);
      const text = await registry.metrics();
      expect(valueOf(text, 'relay_queue_messages', names.deliveryQueue('webhook'))).toBe(7);
      expect(valueOf(text, 'relay_queue_messages', names.retryQueue('webhook', 1000))).toBe(0);
      // the channel's ordered partitions are among its work queues (docs/ordering.md)
      expect(valueOf(text, 'relay_queue_messages', names.orderedQueue('webhook', 7))).toBe(0);
      expect(valueOf(text, 'relay_queue_messages', names.retryQueue('webhook', 5000))).toBe(0);
      expect(valueOf(text, 'relay_queue_consumers', names.deadDeliveryQueue('webhook'))).toBe(1);
      expect(valueOf(text, 'relay_queue_consumers', names.deliveryQueue('webhook'))).toBe(0);
    } finally {
      await conn.close();
    }
    await publishN(3, 7);
    // within the cache period a scrape costs the broker nothing and shows the cached reading
    now = 4999;
    expect(valueOf(await registry.metrics(), 'relay_queue_messages', names.deliveryQueue('webhook'))).toBe(7);
    now = 5000;
    expect(valueOf(await registry.metrics(), 'relay_queue_messages', names.deliveryQueue('webhook'))).toBe(10);
  });

  it("a queue the broker does not have is left out, and the queues after it are still read (its 404 closed only the reader's channel)", async () => {
    const reader = new QueueStatsReader({
      broker,
      queues: [
        names.retryQueue('webhook', 777),
        names.deliveryQueue('chat'),
        names.retryQueue('webhook', 778),
        names.deadDeliveryQueue('chat'),
      ],
      cacheMs: 0,
    });
    const stats = await reader.read();
    expect(stats.map((s) => s.queue)).toEqual([names.deliveryQueue('chat'), names.deadDeliveryQueue('chat')]);
    expect(broker.isUp()).toBe(true);
    await publisher.publish(names.deliveriesExchange, 'chat', Buffer.from('{}'), {
      messageId: 'qm-chat',
      type: 'relay.test.v1',
    });
    expect((await reader.read()).find((s) => s.queue === names.deliveryQueue('chat'))?.messages).toBe(1);
  });

  it('concurrent scrapes share one reading', async () => {
    const reader = new QueueStatsReader({ broker, queues: [names.deliveryQueue('chat')], cacheMs: 5000 });
    const [a, b] = [reader.read(), reader.read()];
    expect(a).toBe(b);
    await a;
  });

  it('a broker that stops answering (black-holed) costs a scrape at most the read timeout: the reading is left empty and cached', async () => {
    const amqpUrl = new URL(infra.rabbitmqUrl);
    const proxy = new TcpProxy(amqpUrl.hostname, Number(amqpUrl.port || 5672));
    await proxy.start();
    amqpUrl.hostname = '127.0.0.1';
    amqpUrl.port = String(proxy.port);
    const viaProxy = new BrokerConnection({
      url: amqpUrl.toString(),
      logger,
      connectionName: 'test queue metrics proxied',
      topology: { namespace, deliveryLimit: 5, retryDelaysMs: { webhook: TIERS } },
    });
    try {
      await viaProxy.start();
      let now = 0;
      const reader = new QueueStatsReader({
        broker: viaProxy,
        queues: [names.deliveryQueue('chat')],
        cacheMs: 5000,
        readTimeoutMs: 300,
        now: () => now,
      });
      expect(await reader.read()).toHaveLength(1);
      proxy.blackhole();
      now = 5000;
      const partial = await reader.read();
      expect(partial).toEqual([]);
      // within the cache period: the same reading, the stalled broker not asked again
      now = 9999;
      expect(await reader.read()).toBe(partial);
    } finally {
      await viaProxy.close();
      await proxy.stop();
    }
  });
});
