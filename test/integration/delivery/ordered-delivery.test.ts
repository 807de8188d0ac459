import { randomBytes } from 'node:crypto';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import { DeliveryPublisher } from '@relay/broker';
import { brokerNames, decodeMessage, ACCOUNT_EVENT_V1, ORDERED_PARTITIONS, orderingHeldKey } from '@relay/contracts';
import type { AccountEvent, HeldOrderKey } from '@relay/contracts';
import { createSecretBox } from '@relay/secrets';
import { createSender, createWebhookKind } from '@relay/targets';
import { BreakerRedis } from '@relay/target-gate';
import { eventually, infra } from '../../support/infra';
import { TestReceiver } from '../../support/receiver';
import { deliveryFor, startHarness } from './harness';
import type { Harness } from './harness';
import { eventId, pipelineOn, request, row } from '../../../libs/activity-log/conformance/fixtures';

/*
 * Ordered deliveries in one deliverer on the real broker (docs/ordering.md "In the deliverer"):
 * a key's retries wait in place while its later events wait behind it and other keys go on; a
 * head kept past ORDERING_HOLD_MAX_MS is dead-lettered and its key's next goes; a head waiting
 * past ORDERING_STUCK_AFTER_MS is stored stuck for the dashboard, told to the account and marked
 * on its row; however many keys are held, the deliverer holds no more than its window.
 */
const kind = createWebhookKind({ secrets: createSecretBox(`it:${randomBytes(32).toString('base64')}`) });
const HOLD_MAX_MS = 2500;
const PREFETCH = 8;
let h: Harness;
let receiver: TestReceiver;
let redis: Redis;

/** a deliverer of ordered webhook deliveries, in this process, that ends a head kept past `holdMaxMs` */
const orderedHarness = (label: string, holdMaxMs: number): Promise<Harness> =>
  startHarness(label, {
    channel: 'webhook',
    kinds: [kind],
    send: createSender({ timeoutMs: 3000, allowCidrs: ['127.0.0.0/8'] }),
    ordering: { prefetch: PREFETCH, holdMaxMs, stuckAfterMs: 300 },
  });

beforeAll(async () => {
  h = await orderedHarness('ordered', HOLD_MAX_MS);
  redis = new Redis(infra.redisUrl);
  receiver = await TestReceiver.start();
});
afterAll(async () => {
  await h?.close();
  await receiver?.close();
  redis?.disconnect();
});

const config = (): Record<string, unknown> => {
  const v = kind.validateConfig({ url: receiver.url(), enforce_https: false });
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return v.value as unknown as Record<string, unknown>;
};
const ordered = (targetId: string, key: string, n: number) => ({
  ...deliveryFor(targetId, 'webhook', JSON.stringify({ key, n })),
  order_key: key,
});
/** `key/n` of each request the receiver got for this target's path, in arrival order, and its attempt */
const arrivals = (path: string) =>
  receiver.requests
    .filter((r) => r.url === path)
    .map((r) => {
      const b = JSON.parse(r.body.toString('utf8')) as { key: string; n: number };
      return `${b.key}/${b.n}#${String(r.headers['x-relay-attempt'])}`;
    });

describe('ordered deliveries in the deliverer', () => {
  it("retries a key's head in place: its later events wait behind it, another key's go on", async () => {
    const failuresLeft = new Map([['K/1', 2]]);
    receiver.respondWith((req) => {
      const b = JSON.parse(req.body.toString('utf8')) as { key: string; n: number };
      const left = failuresLeft.get(`${b.key}/${b.n}`) ?? 0;
      if (left > 0) failuresLeft.set(`${b.key}/${b.n}`, left - 1);
      return left > 0 ? { status: 503, body: 'busy' } : { status: 200, body: 'ok' };
    });
    const targetId = await h.addTarget({
      kind: 'webhook',
      config: { ...config(), url: receiver.url('/retry') },
      retry_schedule_ms: [300, 300],
      ordering: { key: { from: 'path', path: 'key' } },
    });
    for (const [key, n] of [
      ['K', 1],
      ['K', 2],
      ['L', 1],
      ['K', 3],
      ['L', 2],
    ] as const)
      await h.publish(ordered(targetId, key, n));

    await eventually(async () => arrivals('/retry').length === 7, 10_000, 'seven requests');
    const got = arrivals('/retry');
    expect(got.filter((a) => a.startsWith('K/'))).toEqual(['K/1#1', 'K/1#2', 'K/1#3', 'K/2#1', 'K/3#1']);
    expect(got.filter((a) => a.startsWith('L/'))).toEqual(['L/1#1', 'L/2#1']);
    // L did not wait for K's retries
    expect(got.indexOf('L/2#1')).toBeLessThan(got.indexOf('K/1#3'));
    // each attempt is recorded as the unordered path records it, the retries with their next attempt
    // (a head found stuck has its latest attempt recorded again, marked: a row keeps one per number)
    const first = h.attempts.filter((a) => a.target_id === targetId && a.attempt < 3 && a.state === 'retrying');
    expect([...new Set(first.map((a) => a.attempt))].sort()).toEqual([1, 2]);
    expect(first.every((a) => a.next_attempt_at !== null)).toBe(true);
    // nothing waited in a delay tier: the retries stayed in the deliverer
    const names = brokerNames(h.namespace);
    expect((await h.inspect.checkQueue(names.retryQueue('webhook', 500))).messageCount).toBe(0);
  });

  it('dead-letters a head kept past ORDERING_HOLD_MAX_MS as exhausted, and its key goes on; the stuck key was stored and told', async () => {
    receiver.respondWith((req) => {
      const b = JSON.parse(req.body.toString('utf8')) as { key: string; n: number };
      return b.n === 1 ? { status: 503, body: 'busy' } : { status: 200, body: 'ok' };
    });
    const targetId = await h.addTarget({
      kind: 'webhook',
      config: { ...config(), url: receiver.url('/bound') },
      retry_schedule_ms: Array(20).fill(400),
      ordering: { key: { from: 'path', path: 'key' } },
    });
    const events = await amqp.connect(infra.rabbitmqUrl);
    const ch = await events.createChannel();
    const told: AccountEvent[] = [];
    await ch.consume(brokerNames(h.namespace).accountEventQueue, (msg) => {
      if (!msg) return;
      told.push(decodeMessage(msg.content, [ACCOUNT_EVENT_V1]));
      ch.ack(msg);
    });
    try {
      // an event id carrying its time, as the gateway's do: the activity log is partitioned by it
      const head = { ...ordered(targetId, 'S', 1), event_id: eventId('stuck') };
      await h.publish(head);
      await h.publish(ordered(targetId, 'S', 2));

      // while it waits: held, then stuck, in the hash the management API reads
      const stuck = await eventually(
        async () => {
          const raw = await redis.hget(orderingHeldKey(h.namespace, targetId), 'S');
          const entry = raw === null ? null : (JSON.parse(raw) as HeldOrderKey);
          return entry?.stuck ? entry : undefined;
        },
        5000,
        'key S stored stuck',
      );
      expect(stuck).toMatchObject({ key: 'S', event_id: head.event_id, reason: 'retrying', stuck: true });
      const event = await eventually(
        async () => told.find((e) => e.kind === 'ordering_key_stuck' && e.target_id === targetId),
        5000,
        'the ordering_key_stuck event',
      );
      expect(event.detail).toMatchObject({ key: 'S', event_id: head.event_id, reason: 'retrying' });

      // and the head's row says so: its records so far, written by the activity writer's pipeline
      await eventually(
        async () => h.attempts.some((a) => a.delivery_id === head.delivery_id && a.ordering),
        5000,
        "the head's attempt marked stuck",
      );
      await pipelineOn(h.store).write([
        request(head.event_id, { account_id: 'acc_it', endpoint_id: 'ep_it', target_count: 1 }),
        ...h.attempts.filter((a) => a.delivery_id === head.delivery_id),
      ]);
      const shown = (await row(h.store, head.event_id))!.deliveries;
      expect(shown.map((d) => [d.delivery_id, d.state])).toEqual([[head.delivery_id, 'retrying']]);
      const latest = shown[0]!.attempts.at(-1)!;
      expect(latest).toMatchObject({ state: 'retrying', ordering: { key: 'S', stuck_since: expect.any(String) } });
      // found stuck once it had waited ORDERING_STUCK_AFTER_MS
      expect(Date.parse(latest.ordering!.stuck_since) - Date.parse(stuck.since)).toBeGreaterThanOrEqual(300);

      await eventually(async () => arrivals('/bound').includes('S/2#1'), HOLD_MAX_MS + 5000, "S's next event");
      const got = arrivals('/bound');
      // every attempt of the head came first, then the next; no attempt was made past the bound
      expect(got.at(-1)).toBe('S/2#1');
      expect(got.slice(0, -1).every((a) => a.startsWith('S/1#'))).toBe(true);
      expect(got.length - 1).toBeLessThanOrEqual(Math.ceil(HOLD_MAX_MS / 400) + 1);
      const dead = await eventually(
        async () => {
          const d = await h.deadLetters();
          return d.length > 0 ? d : undefined;
        },
        5000,
        'the dead-lettered head',
      );
      expect(dead.map((d) => [d.delivery.delivery_id, d.headers['x-relay-dead-reason']])).toEqual([
        [head.delivery_id, 'exhausted'],
      ]);
      const last = h.attempts
        .filter((a) => a.delivery_id === head.delivery_id)
        .sort((a, b) => b.attempt - a.attempt)[0];
      expect(last).toMatchObject({ state: 'failed', next_attempt_at: null });
      // the head ended: the key is no longer held
      await eventually(
        async () => (await redis.hget(orderingHeldKey(h.namespace, targetId), 'S')) === null,
        5000,
        'key S no longer held',
      );
    } finally {
      await events.close();
    }
  });

  it("holds a paused target's head in place, and ends it at the bound as failed and dead-lettered", async () => {
    receiver.respondWith({ status: 200, body: 'ok' });
    const targetId = await h.addTarget({
      kind: 'webhook',
      config: { ...config(), url: receiver.url('/paused') },
      ordering: { key: { from: 'header', header: 'x-k' } },
      breaker_state: { state: 'paused', since: new Date(), reason: 'paused by test', seq: 1 },
    });
    await new BreakerRedis(redis, h.namespace).setByHand(targetId, 'paused', 'paused by test');
    const head = ordered(targetId, 'P', 1);
    await h.publish(head);

    const held = await eventually(
      async () => {
        const raw = await redis.hget(orderingHeldKey(h.namespace, targetId), 'P');
        return raw === null ? undefined : (JSON.parse(raw) as HeldOrderKey);
      },
      5000,
      'key P held',
    );
    expect(held).toMatchObject({ key: 'P', event_id: head.event_id, attempt: 1, reason: 'paused' });
    const dead = await eventually(
      async () => {
        const d = await h.deadLetters();
        return d.length > 0 ? d : undefined;
      },
      HOLD_MAX_MS + 5000,
      'the head dead-lettered at the bound',
    );
    expect(dead.map((d) => [d.delivery.delivery_id, d.headers['x-relay-dead-reason']])).toEqual([
      [head.delivery_id, 'exhausted'],
    ]);
    const recorded = await eventually(
      async () => {
        const mine = h.attempts.filter((a) => a.delivery_id === head.delivery_id);
        return mine.some((a) => a.state === 'failed') ? mine : undefined;
      },
      5000,
      "the head's attempt row",
    );
    // stuck while paused, before any attempt: its first attempt stands in, not made, marked; at the
    // bound that attempt is recorded failed, still marked
    expect(recorded.map((a) => [a.attempt, a.state, a.status_code, a.ordering?.key])).toEqual([
      [1, 'retrying', null, 'P'],
      [1, 'failed', null, 'P'],
    ]);
    expect(recorded[0]!.error).toBe('not attempted yet: held by the target gate (paused)');
    expect(recorded[1]!.error).toMatch(/^held \(paused\) past ORDERING_HOLD_MAX_MS/);
    // nothing was sent to a paused target
    expect(arrivals('/paused')).toEqual([]);
  });
});

describe('ordered deliveries in a deliverer whose hold bound no key reaches', () => {
  // HOLD_MAX_MS above ends a head that is slow to be delivered: on a loaded machine a key's
  // first attempt and retry can take longer than that, and its key would never be delivered
  let wide: Harness;
  beforeAll(async () => {
    wide = await orderedHarness('ordered-window', 600_000);
  });
  afterAll(() => wide?.close());

  it(`holds no more deliveries than its window (ORDERING_PREFETCH × ${ORDERED_PARTITIONS} partitions) however many keys are held, and none once they are done`, async () => {
    const KEYS = 2000;
    const WINDOW = PREFETCH * ORDERED_PARTITIONS;
    // every key's head fails its first attempt and waits in the deliverer for its retry: from its
    // first attempt to its delivery it is in the deliverer's hands (unacked, in memory)
    const inHand = new Set<string>();
    const delivered = new Set<string>();
    let peakInHand = 0;
    receiver.respondWith((req) => {
      const { key } = JSON.parse(req.body.toString('utf8')) as { key: string };
      if (req.headers['x-relay-attempt'] === '1') {
        inHand.add(key);
        peakInHand = Math.max(peakInHand, inHand.size);
        return { status: 503, body: 'busy' };
      }
      inHand.delete(key);
      delivered.add(key);
      return { status: 200, body: 'ok' };
    });
    const targetId = await wide.addTarget({
      kind: 'webhook',
      config: { ...config(), url: receiver.url('/many') },
      retry_schedule_ms: [100],
      ordering: { key: { from: 'path', path: 'key' } },
      // not under test: half the attempts fail, on purpose
      breaker: { failure_rate_pct: 100, min_attempts: 100_000, window_s: 10, cool_down_s: 1, flag_after_open_s: 60 },
    });
    // the held keys the deliverer keeps (its relay_ordering_held_keys gauge, stuck or not)
    const heldNow = async (): Promise<number> =>
      (await wide.metrics.getSingleMetric('relay_ordering_held_keys')!.get()).values.reduce((n, v) => n + v.value, 0);
    let peakHeld = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peakHeld = Math.max(peakHeld, await heldNow());
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      // all of them queued at once, as a burst from the gateway would
      const all = Array.from({ length: KEYS }, (_, i) => ({
        message: ordered(targetId, `key-${i}`, 1),
        channel: 'webhook' as const,
      }));
      const publisher = new DeliveryPublisher(wide.publisher, wide.namespace);
      for (let i = 0; i < KEYS; i += 500) await publisher.publish(all.slice(i, i + 500));
      await eventually(async () => delivered.size === KEYS, 180_000, `the ${KEYS} keys delivered`);
    } finally {
      sampling = false;
      await sampler;
    }
    expect(peakInHand).toBeLessThanOrEqual(WINDOW);
    expect(peakInHand).toBeGreaterThan(WINDOW / 2);
    expect(peakHeld).toBeGreaterThan(0);
    expect(peakHeld).toBeLessThanOrEqual(WINDOW);
    // done: no key held, nothing in hand, nothing left in the partitions
    await eventually(async () => (await heldNow()) === 0, 5000, 'no key held');
    expect(inHand.size).toBe(0);
    const names = brokerNames(wide.namespace);
    for (let k = 0; k < ORDERED_PARTITIONS; k++)
      expect((await wide.inspect.checkQueue(names.orderedQueue('webhook', k))).messageCount).toBe(0);
  }, 240_000);
});
