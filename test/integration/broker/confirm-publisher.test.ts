import amqp from 'amqplib';
import { BrokerConnection, BrokerUnavailableError, ConfirmPublisher } from '@relay/broker';
import type { PublishResult } from '@relay/broker';
import { brokerNames } from '@relay/contracts';
import { deleteBrokerNamespace, eventually, infra, testNamespace } from '../../support/infra';
import { testLogger } from '../../support/logger';
import { TcpProxy } from '../../support/tcp-proxy';

const { namespace } = testNamespace('broker');
const names = brokerNames(namespace);
const { logger } = testLogger('broker-test');
const amqpPort = Number(new URL(infra.rabbitmqUrl).port || 5672);
const amqpHost = new URL(infra.rabbitmqUrl).hostname;

function viaProxy(proxy: TcpProxy): string {
  const u = new URL(infra.rabbitmqUrl);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}

function connection(url = infra.rabbitmqUrl): BrokerConnection {
  return new BrokerConnection({
    url,
    logger,
    connectionName: 'test',
    topology: { namespace, deliveryLimit: 5 },
    reconnectMinMs: 50,
    reconnectMaxMs: 200,
    heartbeatSeconds: 2,
  });
}

async function drainQueue(queue: string): Promise<amqp.GetMessage[]> {
  const conn = await amqp.connect(infra.rabbitmqUrl);
  const ch = await conn.createChannel();
  const out: amqp.GetMessage[] = [];
  for (;;) {
    const m = await ch.get(queue, { noAck: true });
    if (!m) break;
    out.push(m);
  }
  await conn.close();
  return out;
}

afterAll(() => deleteBrokerNamespace(namespace));

describe('broker topology and publisher confirms (real RabbitMQ)', () => {
  it('declares the topology idempotently: a second start-up with the same settings succeeds', async () => {
    const a = connection();
    await a.start();
    const b = connection();
    await b.start();
    await Promise.all([a.close(), b.close()]);
  });

  it('declares work queues as quorum queues with a dead-letter exchange and an explicit delivery limit', async () => {
    const conn = await amqp.connect(infra.rabbitmqUrl);
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    // Re-asserting with other arguments must fail with PRECONDITION_FAILED — proof of the stored arguments.
    const err = await ch
      .assertQueue(names.deliveryQueue('webhook'), { durable: true, arguments: { 'x-queue-type': 'classic' } })
      .catch((e: Error) => e);
    expect(String(err)).toMatch(/PRECONDITION_FAILED/);
    await conn.close().catch(() => undefined);
  });

  it('resolves a publish only after the broker confirmed it, and the message is persistent', async () => {
    const broker = connection();
    await broker.start();
    const publisher = new ConfirmPublisher(broker, 2000);
    await publisher.publish(names.deliveriesExchange, 'webhook', Buffer.from('{"n":1}'), {
      messageId: 'm-1',
      type: 'relay.test.v1',
    });
    const [msg] = await drainQueue(names.deliveryQueue('webhook'));
    expect(msg?.content.toString()).toBe('{"n":1}');
    expect(msg?.properties.deliveryMode).toBe(2);
    expect(msg?.properties.messageId).toBe('m-1');
    expect(msg?.properties.type).toBe('relay.test.v1');
    await broker.close();
  });

  it('confirms concurrent publishes independently (no waitForConfirms coupling)', async () => {
    const broker = connection();
    await broker.start();
    const publisher = new ConfirmPublisher(broker, 5000);
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        publisher.publish(names.deliveriesExchange, 'chat', Buffer.from(String(i)), { messageId: `c-${i}`, type: 't' }),
      ),
    );
    expect(publisher.inFlight).toBe(0);
    expect((await drainQueue(names.deliveryQueue('chat'))).length).toBe(300);
    await broker.close();
  });

  it('rejects an unroutable message (mandatory + basic.return) instead of treating its ack as success', async () => {
    const broker = connection();
    await broker.start();
    const publisher = new ConfirmPublisher(broker, 2000);
    await expect(
      publisher.publish(names.deliveriesExchange, 'no-such-route', Buffer.from('x'), { messageId: 'u-1', type: 't' }),
    ).rejects.toMatchObject({ reason: 'unroutable' });
    await broker.close();
  });

  it('rejects at once with not_connected when there is no broker connection', async () => {
    const broker = connection();
    const publisher = new ConfirmPublisher(broker, 2000);
    await expect(
      publisher.publish(names.deliveriesExchange, 'webhook', Buffer.from('x'), { messageId: 'n-1', type: 't' }),
    ).rejects.toBeInstanceOf(BrokerUnavailableError);
  });

  it('fails in-flight and new publishes when the connection is cut, then reconnects by itself', async () => {
    const proxy = new TcpProxy(amqpHost, amqpPort);
    await proxy.start();
    const broker = connection(viaProxy(proxy));
    await broker.start();
    const publisher = new ConfirmPublisher(broker, 2000);
    await publisher.publish(names.deliveriesExchange, 'webhook', Buffer.from('before'), {
      messageId: 'p-1',
      type: 't',
    });

    await proxy.cut();
    await eventually(async () => !broker.isUp(), 5000, 'connection loss to be noticed');
    await expect(
      publisher.publish(names.deliveriesExchange, 'webhook', Buffer.from('during'), { messageId: 'p-2', type: 't' }),
    ).rejects.toMatchObject({ reason: 'not_connected' });

    await proxy.restore();
    await eventually(async () => broker.isUp(), 10000, 'reconnect');
    await publisher.publish(names.deliveriesExchange, 'webhook', Buffer.from('after'), { messageId: 'p-3', type: 't' });
    const bodies = (await drainQueue(names.deliveryQueue('webhook'))).map((m) => m.content.toString());
    expect(bodies).toEqual(['before', 'after']);
    await broker.close();
    await proxy.stop();
  });

  it('on a cluster (RABBITMQ_URL lists several nodes), a node that goes away moves the connection to the next, and publishes in flight are sent there within their deadline', async () => {
    // two proxies to the one local broker stand in for two nodes of a cluster
    const [node1, node2] = [new TcpProxy(amqpHost, amqpPort), new TcpProxy(amqpHost, amqpPort)];
    await Promise.all([node1.start(), node2.start()]);
    const broker = connection(`${viaProxy(node1)},${viaProxy(node2)}`);
    await broker.start();
    const results: PublishResult[] = [];
    const publisher = new ConfirmPublisher(broker, 3000, (r) => results.push(r));
    await publisher.publish(names.deliveriesExchange, 'chat', Buffer.from('before'), { messageId: 'f-0', type: 't' });

    // node 1 dies with publishes in flight, and more arrive before the connection moves on
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      publisher.publish(names.deliveriesExchange, 'chat', Buffer.from(`during-${i}`), {
        messageId: `f-${i + 1}`,
        type: 't',
      }),
    );
    await node1.cut();
    const later = Array.from({ length: 5 }, (_, i) =>
      publisher.publish(names.deliveriesExchange, 'chat', Buffer.from(`later-${i}`), {
        messageId: `f-${i + 21}`,
        type: 't',
      }),
    );
    await Promise.all([...inFlight, ...later]);

    expect(results.every((r) => r === 'confirmed')).toBe(true);
    const bodies = new Set((await drainQueue(names.deliveryQueue('chat'))).map((m) => m.content.toString()));
    // every message is in the queue (one written before the cut may be there twice: at-least-once)
    for (const b of [
      'before',
      ...Array.from({ length: 20 }, (_, i) => `during-${i}`),
      ...Array.from({ length: 5 }, (_, i) => `later-${i}`),
    ])
      expect(bodies.has(b)).toBe(true);
    await broker.close();
    await Promise.all([node1.stop(), node2.stop()]);
  });

  it('with one node, a publish whose connection went away fails at once: there is nowhere else to send it', async () => {
    const proxy = new TcpProxy(amqpHost, amqpPort);
    await proxy.start();
    const broker = connection(viaProxy(proxy));
    await broker.start();
    const publisher = new ConfirmPublisher(broker, 3000);
    const started = Date.now();
    const inFlight = publisher
      .publish(names.deliveriesExchange, 'chat', Buffer.from('x'), { messageId: 'o-1', type: 't' })
      .catch((e: BrokerUnavailableError) => e);
    await proxy.cut();
    const err = await inFlight;
    // confirmed before the cut reached it, or failed at once when the channel closed — never held
    if (err instanceof BrokerUnavailableError) expect(['channel_closed', 'not_connected']).toContain(err.reason);
    expect(Date.now() - started).toBeLessThan(2500);
    await broker.close();
    await proxy.stop();
    await drainQueue(names.deliveryQueue('chat'));
  });

  it("tells its observer how every publish ended (the gateway's confirm and failure metrics): confirmed, unroutable, not_connected", async () => {
    const results: PublishResult[] = [];
    const broker = connection();
    const publisher = new ConfirmPublisher(broker, 2000, (r) => results.push(r));
    await expect(
      publisher.publish(names.deliveriesExchange, 'webhook', Buffer.from('x'), { messageId: 'o-0', type: 't' }),
    ).rejects.toMatchObject({ reason: 'not_connected' });
    await broker.start();
    await publisher.publish(names.deliveriesExchange, 'webhook', Buffer.from('x'), { messageId: 'o-1', type: 't' });
    await expect(
      publisher.publish(names.deliveriesExchange, 'no-such-route', Buffer.from('x'), { messageId: 'o-2', type: 't' }),
    ).rejects.toMatchObject({ reason: 'unroutable' });
    expect(results).toEqual(['not_connected', 'confirmed', 'unroutable']);
    await drainQueue(names.deliveryQueue('webhook'));
    await broker.close();
  });

  it('rejects with confirm_timeout when the broker stops answering (black-holed connection)', async () => {
    const proxy = new TcpProxy(amqpHost, amqpPort);
    await proxy.start();
    const broker = connection(viaProxy(proxy));
    await broker.start();
    const publisher = new ConfirmPublisher(broker, 300);
    proxy.blackhole();
    await expect(
      publisher.publish(names.deliveriesExchange, 'webhook', Buffer.from('lost'), { messageId: 'b-1', type: 't' }),
    ).rejects.toMatchObject({ reason: 'confirm_timeout' });
    await broker.close();
    await proxy.stop();
  });
});
