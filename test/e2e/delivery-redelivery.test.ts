import { must } from '@relay/client';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brokerNames } from '@relay/contracts';
import amqp from 'amqplib';
import { deleteBrokerNamespace, eventually, infra } from '../support/infra';
import { startService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * At-least-once (docs/delivery.md): the webhook-deliverer is SIGKILLed while its requests are
 * in flight at the receiver; the broker redelivers every unacked delivery to a fresh deliverer,
 * which sends it again with the same X-Relay-Delivery-Id and a higher X-Relay-Attempt.
 */
const EVENTS = 5;
const TIERS = '200,500';

/** Holds the first request of every delivery open (the deliverer is "mid-delivery"); answers later ones 200. */
class HoldingReceiver {
  readonly seen: Array<{ deliveryId: string; eventId: string; attempt: number }> = [];
  private readonly held: http.ServerResponse[] = [];
  private readonly server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const deliveryId = String(req.headers['x-relay-delivery-id']);
      const first = !this.seen.some((s) => s.deliveryId === deliveryId);
      this.seen.push({
        deliveryId,
        eventId: String(req.headers['x-relay-event-id']),
        attempt: Number(req.headers['x-relay-attempt']),
      });
      if (first) this.held.push(res);
      else res.writeHead(200).end('ok');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let stack: Stack;
const receiver = new HoldingReceiver();

beforeAll(async () => {
  const url = await receiver.start();
  // private: it kills the deliverer; retry tiers of its own
  stack = await startStack('redeliver', {
    overrides: {
      'webhook-deliverer': { RETRY_TIERS_MS: TIERS, RETRY_AFTER_MAX_MS: '500', DELIVERY_TIMEOUT_MS: '30000' },
    },
  });
  const endpoint = await must(stack.client.POST('/v1/endpoints', { body: { name: 'kill' } }));
  await must(
    stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId: endpoint.id } },
      body: { kind: 'webhook', name: 'held', config: { url, enforce_https: false } },
    }),
  );
  for (let i = 0; i < EVENTS; i++) {
    const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpoint.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"n":${i}}`,
    });
    expect(res.status).toBe(202);
  }
});

afterAll(async () => {
  await stack?.stop();
  if (stack) await deleteBrokerNamespace(stack.namespace, TIERS.split(',').map(Number));
  await receiver.close();
});

describe('a deliverer killed mid-delivery (SIGKILL)', () => {
  it('leads to redelivery with the same X-Relay-Delivery-Id and a higher X-Relay-Attempt; nothing is lost', async () => {
    await eventually(
      async () => receiver.seen.length === EVENTS,
      15000,
      `${EVENTS} deliveries in flight at the receiver`,
    );
    const first = [...receiver.seen];
    expect(first.every((s) => s.attempt === 1)).toBe(true);
    expect(new Set(first.map((s) => s.deliveryId)).size).toBe(EVENTS);

    const killed = stack.services['webhook-deliverer']!;
    killed.process.kill('SIGKILL');
    await eventually(async () => killed.process.signalCode === 'SIGKILL', 5000, 'the deliverer to die');
    stack.services['webhook-deliverer'] = await startService('webhook-deliverer', {
      ...stack.env,
      RETRY_TIERS_MS: TIERS,
      RETRY_AFTER_MAX_MS: '500',
    });

    await eventually(async () => receiver.seen.length >= EVENTS * 2, 20000, 'every delivery to arrive again');
    for (const { deliveryId, eventId } of first) {
      const again = receiver.seen.filter((s) => s.deliveryId === deliveryId && s.attempt > 1);
      expect(again.length).toBeGreaterThanOrEqual(1);
      expect(again[0]).toEqual({ deliveryId, eventId, attempt: 2 });
    }

    // every request's activity row ends Completed, with the redelivered attempt recorded as delivered
    for (const { eventId, deliveryId } of first) {
      const row = await eventually(
        async () => {
          const res = await must(stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } }));
          return res.status === 'completed' ? res : undefined;
        },
        15000,
        `activity row ${eventId} completed`,
      );
      const delivery = row.deliveries.find((d) => d.delivery_id === deliveryId);
      expect(delivery?.attempts.at(-1)).toMatchObject({ attempt: 2, state: 'delivered', status_code: 200 });
    }

    // nothing left behind: the work queue and the dead-letter queue are empty
    const conn = await amqp.connect(infra.rabbitmqUrl);
    try {
      const ch = await conn.createChannel();
      const names = brokerNames(stack.namespace);
      expect((await ch.checkQueue(names.deliveryQueue('webhook'))).messageCount).toBe(0);
      expect((await ch.checkQueue(names.deadDeliveryQueue('webhook'))).messageCount).toBe(0);
    } finally {
      await conn.close();
    }
  });
});
