import { randomBytes } from 'node:crypto';
import amqp from 'amqplib';
import {
  brokerNames,
  cliSessionsExchange,
  DELIVERY_CHANNELS,
  ORDERED_CHANNELS,
  ORDERED_PARTITIONS,
} from '@relay/contracts';
import { defaultRetryTiers } from '../../services/deliverer/src/retry/tiers';

/**
 * The real local servers `npm run infra:up` starts (or the ones named by the same variables
 * the services read). Every test file gets its own namespace — queue names, Redis keys and
 * MongoDB database — so files never see each other's data and can clean up what they made.
 */
export const infra = {
  rabbitmqUrl: process.env.RABBITMQ_URL ?? 'amqp://127.0.0.1:5672',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  mongoBaseUrl: process.env.MONGODB_URL ?? 'mongodb://127.0.0.1:27017/relay',
};

export interface TestNamespace {
  namespace: string;
  mongodbUrl: string;
}

export function testNamespace(label: string): TestNamespace {
  const namespace = `t_${label.replace(/[^a-z0-9]/gi, '').slice(0, 20)}_${randomBytes(4).toString('hex')}`;
  const u = new URL(infra.mongoBaseUrl);
  u.pathname = `/${namespace}`;
  return { namespace, mongodbUrl: u.toString() };
}

/** Deletes every queue and exchange a namespace declared (retry tiers: the given ones and the deliverers' defaults). */
export async function deleteBrokerNamespace(namespace: string, retryDelaysMs: number[] = []): Promise<void> {
  const conn = await amqp.connect(infra.rabbitmqUrl);
  try {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    const n = brokerNames(namespace);
    const queues = [
      n.activityQueue,
      ...n.activityPartitionQueues,
      n.activityWritersQueue,
      n.deadActivityQueue,
      n.payloadQueue,
      n.accountEventQueue,
    ];
    for (const c of DELIVERY_CHANNELS) {
      queues.push(n.deliveryQueue(c), n.deadDeliveryQueue(c));
      if (ORDERED_CHANNELS.includes(c)) {
        queues.push(n.orderedDeliverersQueue(c));
        for (let k = 0; k < ORDERED_PARTITIONS; k++) queues.push(n.orderedQueue(c, k));
      }
      for (const d of new Set([...retryDelaysMs, ...defaultRetryTiers(c)])) queues.push(n.retryQueue(c, d));
    }
    for (const q of queues) await ch.deleteQueue(q).catch(() => undefined);
    for (const e of [
      n.deliveriesExchange,
      n.activityExchange,
      n.deadLetterExchange,
      n.retryExchange,
      cliSessionsExchange(namespace),
    ])
      await ch.deleteExchange(e).catch(() => undefined);
    await ch.close().catch(() => undefined);
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false | null>,
  timeoutMs = 10000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false && v !== null) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}
