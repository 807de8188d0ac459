import { randomUUID } from 'node:crypto';
import { must } from '@relay/client';
import amqp from 'amqplib';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { activityRowWhen } from '../support/api-client';
import { eventually } from '../support/infra';
import { startPrivateRabbitmq } from '../support/private-servers';
import {
  addQueueTarget,
  flagOf,
  removeTarget,
  retryingWith,
  RIDES_OUT_AN_OUTAGE,
  sendJson,
} from '../support/queue-targets';
import { startService } from '../support/services';
import type { RunningService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

/*
 * RabbitMQ exchange targets (docs/targets-queues.md "RabbitMQ"), every service its own process on
 * the worker's shared stack, which runs no outputs deliverer: this file starts one on the stack's
 * environment for its own run. Each test declares an exchange and a queue of its own
 * (`e2e-x-<uuid>`) on the shared RabbitMQ, never in Relay's namespace, and reads what arrived;
 * the outage test stops a private RabbitMQ node of its own, never the shared one.
 */

const SHARED_RABBIT = process.env.RABBITMQ_URL ?? 'amqp://127.0.0.1:5672';
let stack: Stack;
let outputs: RunningService;
let endpointId: string;

beforeAll(async () => {
  stack = await startStack('amqp-exchange');
  outputs = await startService('outputs-deliverer', stack.env);
  endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'to exchanges' } }))).id;
});

afterAll(async () => {
  await outputs?.stop();
  await stack?.stop();
});

/** A consumer of a topic exchange of the test's own: a durable queue bound to `binding`, every message kept. */
async function consumerOn(url: string, binding: string) {
  const exchange = `e2e-x-${randomUUID()}`;
  const connection: ChannelModel = await amqp.connect(url);
  // a broker stopped under the consumer closes it; that is the test's doing, not a failure
  connection.on('error', () => undefined);
  const channel: Channel = await connection.createChannel();
  channel.on('error', () => undefined);
  await channel.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await channel.assertQueue(`${exchange}.q`, { durable: true });
  await channel.bindQueue(queue, exchange, binding);
  const got: ConsumeMessage[] = [];
  await channel.consume(
    queue,
    (m) => {
      if (m) got.push(m);
    },
    { noAck: true },
  );
  return {
    exchange,
    got,
    waitFor: (n: number, timeoutMs = 30_000) =>
      eventually(async () => (got.length >= n ? got : undefined), timeoutMs, `${n} messages on ${queue}`),
    async close() {
      await channel.deleteQueue(queue).catch(() => undefined);
      await channel.deleteExchange(exchange).catch(() => undefined);
      await connection.close().catch(() => undefined);
    },
  };
}

describe('RabbitMQ exchange target, end to end', () => {
  it('an event becomes one persistent message: the body, content type, headers, message_id = delivery id, the rendered routing key', async () => {
    const consumer = await consumerOn(SHARED_RABBIT, 'orders.#');
    const targetId = await addQueueTarget(stack, endpointId, 'amqp_exchange', {
      url: SHARED_RABBIT,
      exchange: consumer.exchange,
      routing_key: 'orders.{{type}}',
    });
    try {
      await sendJson(stack, endpointId, { type: 'paid', order: { id: 42 } });
      const [m] = await consumer.waitFor(1);
      expect(m!.content.toString()).toBe('{"type":"paid","order":{"id":42}}');
      expect(m!.fields.routingKey).toBe('orders.paid');
      expect(m!.properties).toMatchObject({
        contentType: 'application/json',
        deliveryMode: 2,
        messageId: expect.stringMatching(/^dlv_/),
        headers: { 'relay-event-id': expect.stringMatching(/^evt_/), 'relay-endpoint-id': endpointId },
      });
      const eventId = m!.properties.headers!['relay-event-id'] as string;
      const row = await activityRowWhen(stack.client, eventId, (r) => r.status === 'completed', 'delivered');
      expect(row.deliveries).toEqual([
        expect.objectContaining({ delivery_id: m!.properties.messageId, target_id: targetId }),
      ]);
      expect(row.deliveries[0]!.attempts.map((a) => [a.state, a.status_code])).toEqual([['delivered', null]]);
    } finally {
      await removeTarget(stack, endpointId, targetId);
      await consumer.close();
    }
  });

  it('a wrong credential (ACCESS_REFUSED) flags the target with the reason; the password is in no response', async () => {
    const consumer = await consumerOn(SHARED_RABBIT, '#');
    const url = new URL(SHARED_RABBIT);
    url.username = 'nobody';
    url.password = 'wrong-Pa55word';
    const targetId = await addQueueTarget(stack, endpointId, 'amqp_exchange', {
      url: url.toString(),
      exchange: consumer.exchange,
    });
    try {
      await sendJson(stack, endpointId, { n: 1 });
      const flagged = await flagOf(stack, endpointId, targetId);
      expect(flagged.reason).toContain('the broker refused the user (ACCESS_REFUSED)');
      expect(consumer.got).toHaveLength(0);
      const list = await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }),
      );
      expect(JSON.stringify(list)).not.toContain('wrong-Pa55word');
    } finally {
      await removeTarget(stack, endpointId, targetId);
      await consumer.close();
    }
  });
});

describe('the destination RabbitMQ stopped mid-run and restarted', () => {
  it('deliveries sent while it is down are retried and arrive once it is back, none lost', async () => {
    const rabbit = await startPrivateRabbitmq('amqp-outage');
    // declared durable on the private node, so the exchange, queue and binding survive its restart
    const before = await consumerOn(rabbit.url, '#');
    const outage = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'outage' } }))).id;
    const targetId = await addQueueTarget(
      stack,
      outage,
      'amqp_exchange',
      { url: rabbit.url, exchange: before.exchange },
      RIDES_OUT_AN_OUTAGE,
    );
    try {
      for (let i = 0; i < 3; i++) await sendJson(stack, outage, { before: i });
      await before.waitFor(3);
      const ids = new Set(before.got.map((m) => m.properties.messageId));

      await rabbit.stop('SIGTERM');
      for (let i = 0; i < 3; i++) await sendJson(stack, outage, { during: i });
      await retryingWith(stack, outage, 'broker unavailable (ECONNREFUSED)', 3);

      await rabbit.start(120_000);
      const queue = `${before.exchange}.q`;
      const connection = await amqp.connect(rabbit.url);
      connection.on('error', () => undefined);
      try {
        const channel = await connection.createChannel();
        const after: ConsumeMessage[] = [];
        await channel.consume(
          queue,
          (m) => {
            if (m) after.push(m);
          },
          { noAck: true },
        );
        await eventually(async () => (after.length >= 3 ? true : undefined), 60_000, 'the three held deliveries');
        expect(after.map((m) => JSON.parse(m.content.toString()))).toEqual(
          expect.arrayContaining([{ during: 0 }, { during: 1 }, { during: 2 }]),
        );
        for (const m of after) ids.add(m.properties.messageId);
        expect(ids.size).toBe(6);
      } finally {
        await connection.close().catch(() => undefined);
      }
    } finally {
      await removeTarget(stack, outage, targetId);
      await before.close();
      await rabbit.close();
    }
  });
});
