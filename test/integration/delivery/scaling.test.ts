import { randomBytes } from 'node:crypto';
import { BrokerConnection } from '@relay/broker';
import { createSecretBox } from '@relay/secrets';
import { connectStore } from '@relay/store';
import type { Store } from '@relay/store';
import { connectChangeFeed } from '@relay/cache';
import { createDeliverer } from '../../../services/deliverer/src/delivery/worker';
import { Registry } from 'prom-client';
import { createRegistry, createSender, createWebhookKind } from '@relay/targets';
import type { OutboundRequest } from '@relay/targets';
import { eventually, infra } from '../../support/infra';
import { testLogger } from '../../support/logger';
import { TestReceiver } from '../../support/receiver';
import { TEST_TIERS_MS, deliveryFor, startHarness } from './harness';
import type { Harness } from './harness';

/*
 * "Each deliverer scales by instance count alone": a second instance with its own broker
 * connection and store connection joins the same queue and shares the work, with no
 * coordination and no delivery sent twice.
 */
const kind = createWebhookKind({ secrets: createSecretBox(`it:${randomBytes(32).toString('base64')}`) });
const sender = createSender({ timeoutMs: 3000, allowCidrs: ['127.0.0.0/8'] });
const sentBy = { first: 0, second: 0 };
let h: Harness;
let receiver: TestReceiver;
let second: { broker: BrokerConnection; store: Store; stop(): Promise<void> };

beforeAll(async () => {
  receiver = await TestReceiver.start();
  h = await startHarness('scaling', {
    channel: 'webhook',
    kinds: [kind],
    send: (req: OutboundRequest) => ((sentBy.first += 1), sender(req)),
  });
  const store = await connectStore(h.mongodbUrl);
  const broker = new BrokerConnection({
    url: infra.rabbitmqUrl,
    connectionName: 'second',
    logger: testLogger().logger,
    topology: { namespace: h.namespace, deliveryLimit: 20, retryDelaysMs: { webhook: TEST_TIERS_MS } },
  });
  await broker.start();
  const changes = connectChangeFeed({
    redisUrl: infra.redisUrl,
    namespace: h.namespace,
    checkIntervalMs: 100,
    sweepIntervalMs: 0,
    logger: testLogger().logger,
  });
  const deliverer = createDeliverer({
    channel: 'webhook',
    namespace: h.namespace,
    broker,
    store,
    registry: createRegistry([kind]),
    logger: testLogger().logger,
    send: (req) => ((sentBy.second += 1), sender(req)),
    prefetch: 8,
    targetCacheMax: 1000,
    changes,
    revalidation: { batchSize: 50, pauseMs: 0 },
    confirmTimeoutMs: 5000,
    retry: { tiersMs: TEST_TIERS_MS, jitterPct: 0, retryAfterMaxMs: 1000 },
    flagAfterPermanentFailures: 3,
    metrics: new Registry(),
    ordering: { prefetch: 8, holdMaxMs: 60_000, stuckAfterMs: 5_000, balanceMs: 0 },
  });
  await changes.feed.start();
  await deliverer.start();
  second = {
    broker,
    store,
    async stop() {
      await deliverer.stop(2000);
      await broker.close();
      await changes.close();
      await store.close();
    },
  };
});

afterAll(async () => {
  await second?.stop();
  await h?.close();
  await receiver?.close();
});

it('two deliverer instances on one queue share the deliveries; each is sent exactly once', async () => {
  const v = kind.validateConfig({ url: receiver.url(), enforce_https: false });
  if (!v.ok) throw new Error('config');
  const targetId = await h.addTarget({ kind: 'webhook', config: v.value as unknown as Record<string, unknown> });
  const deliveries = Array.from({ length: 60 }, () => deliveryFor(targetId, 'webhook'));
  await Promise.all(deliveries.map((d) => h.publish(d)));
  await receiver.waitForRequests(60, 15000);
  await eventually(async () => h.attempts.length >= 60, 5000, 'every attempt recorded');
  const ids = receiver.requests.map((r) => r.headers['x-relay-delivery-id']);
  expect(new Set(ids).size).toBe(60);
  expect(ids).toHaveLength(60);
  expect(sentBy.first).toBeGreaterThan(0);
  expect(sentBy.second).toBeGreaterThan(0);
  expect(sentBy.first + sentBy.second).toBe(60);
});
