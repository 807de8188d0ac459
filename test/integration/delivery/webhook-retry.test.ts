import { randomBytes } from 'node:crypto';
import { brokerNames } from '@relay/contracts';
import { createSecretBox } from '@relay/secrets';
import { redriveDeadDeliveries } from '../../../services/deliverer/src/retry/redrive';
import { createSender, createWebhookKind } from '@relay/targets';
import { eventually } from '../../support/infra';
import { ClosingReceiver } from '../../support/closing-receiver';
import { TestReceiver } from '../../support/receiver';
import { deliveryFor, startHarness } from './harness';
import type { Harness } from './harness';
import { modelsOf } from '../../support/store-models';

/*
 * Retries and dead-letter on the real broker (docs/delivery.md): the delays are the real
 * RabbitMQ TTL tiers, just short (200 ms / 500 ms / 1 s), and the deliverer is the real one.
 */
const kind = createWebhookKind({ secrets: createSecretBox(`it:${randomBytes(32).toString('base64')}`) });
let h: Harness;
let receiver: TestReceiver;

beforeAll(async () => {
  h = await startHarness('whretry', {
    channel: 'webhook',
    kinds: [kind],
    send: createSender({ timeoutMs: 3000, allowCidrs: ['127.0.0.0/8'] }),
  });
});
afterAll(() => h?.close());
beforeEach(async () => {
  receiver = await TestReceiver.start();
});
afterEach(() => receiver.close());

const config = (): Record<string, unknown> => {
  const v = kind.validateConfig({ url: receiver.url(), enforce_https: false });
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return v.value as unknown as Record<string, unknown>;
};
const attemptsOf = (deliveryId: string) =>
  h.attempts.filter((a) => a.delivery_id === deliveryId).sort((a, b) => a.attempt - b.attempt);
const header = (i: number, name: string): unknown => receiver.requests[i]?.headers[name];

describe('webhook retries through the broker delay tiers, then the dead-letter queue', () => {
  it('a 503 is retried after 200 ms and 500 ms (schedule [200, 500]) with the same delivery id and a growing X-Relay-Attempt, then dead-lettered; each attempt reaches the activity stream', async () => {
    receiver.respondWith({ status: 503 });
    const targetId = await h.addTarget({ kind: 'webhook', config: config(), retry_schedule_ms: [200, 500] });
    const d = deliveryFor(targetId, 'webhook');
    await h.publish(d);

    const started = Date.now();
    await receiver.waitForRequests(3, 10_000);
    const arrivals = receiver.requests.map(() => Date.now() - started);
    expect([0, 1, 2].map((i) => header(i, 'x-relay-attempt'))).toEqual(['1', '2', '3']);
    expect(new Set([0, 1, 2].map((i) => header(i, 'x-relay-delivery-id')))).toEqual(new Set([d.delivery_id]));
    expect(arrivals.length).toBe(3);

    const states = await eventually(
      async () => (attemptsOf(d.delivery_id).length === 3 ? attemptsOf(d.delivery_id) : undefined),
      5000,
      'three recorded attempts',
    );
    expect(states.map((a) => [a.attempt, a.state, a.status_code, a.error])).toEqual([
      [1, 'retrying', 503, 'HTTP 503'],
      [2, 'retrying', 503, 'HTTP 503'],
      [3, 'failed', 503, 'HTTP 503'],
    ]);
    // next_attempt_at names the tier's delay; the broker honoured it
    const gap = (a: number, b: number) => Date.parse(states[b]!.attempted_at) - Date.parse(states[a]!.attempted_at);
    expect(Date.parse(states[0]!.next_attempt_at!) - Date.parse(states[0]!.attempted_at)).toBeGreaterThanOrEqual(200);
    expect(gap(0, 1)).toBeGreaterThanOrEqual(200);
    expect(gap(1, 2)).toBeGreaterThanOrEqual(500);
    expect(states[2]!.next_attempt_at).toBeNull();

    const dead = await eventually(
      async () => {
        const got = await h.deadLetters();
        return got.length > 0 ? got : undefined;
      },
      5000,
      'the dead-lettered delivery',
    );
    expect(dead).toHaveLength(1);
    expect(dead[0]!.delivery).toMatchObject({ delivery_id: d.delivery_id, attempt: 3 });
    expect(dead[0]!.headers).toMatchObject({
      'x-relay-dead-reason': 'exhausted',
      'x-relay-last-error': 'HTTP 503',
      'x-relay-last-status': 503,
    });
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.requests).toHaveLength(3);
  });

  it('redrive moves a dead delivery back with a confirm: same delivery id, the attempt count continues, the schedule restarts', async () => {
    receiver.respondWith({ status: 500 });
    const targetId = await h.addTarget({ kind: 'webhook', config: config(), retry_schedule_ms: [] });
    const d = deliveryFor(targetId, 'webhook');
    await h.publish(d);
    await receiver.waitForRequests(1, 5000);
    const names = brokerNames(h.namespace);
    await eventually(
      async () => (await h.inspect.checkQueue(names.deadDeliveryQueue('webhook'))).messageCount === 1,
      5000,
      'one dead delivery',
    );

    receiver.respondWith((req) => (req.headers['x-relay-attempt'] === '2' ? { status: 503 } : { status: 200 }));
    await h.updateTarget(targetId, { retry_schedule_ms: [200] });
    const result = await redriveDeadDeliveries(h.broker, h.publisher, {
      namespace: h.namespace,
      channel: 'webhook',
      limit: 10,
    });
    expect(result).toEqual({ moved: 1, kept: 0 });

    await receiver.waitForRequests(3, 5000);
    expect(receiver.requests.map((r) => [r.headers['x-relay-delivery-id'], r.headers['x-relay-attempt']])).toEqual([
      [d.delivery_id, '1'],
      [d.delivery_id, '2'],
      [d.delivery_id, '3'],
    ]);
    const last = await eventually(
      async () => attemptsOf(d.delivery_id).find((a) => a.attempt === 3),
      5000,
      'attempt 3 recorded',
    );
    expect(last.state).toBe('delivered');
    expect(attemptsOf(d.delivery_id).map((a) => a.state)).toEqual(['failed', 'retrying', 'delivered']);
  });

  it('redrive --target moves only that target and keeps the rest dead', async () => {
    receiver.respondWith({ status: 400 });
    const keep = await h.addTarget({ kind: 'webhook', config: config(), retry_schedule_ms: [] });
    const move = await h.addTarget({ kind: 'webhook', config: config(), retry_schedule_ms: [] });
    await h.publish(deliveryFor(keep, 'webhook'));
    await h.publish(deliveryFor(move, 'webhook'));
    const names = brokerNames(h.namespace);
    await eventually(
      async () => (await h.inspect.checkQueue(names.deadDeliveryQueue('webhook'))).messageCount === 2,
      5000,
      'two dead deliveries',
    );
    receiver.respondWith({ status: 200 });
    expect(
      await redriveDeadDeliveries(h.broker, h.publisher, {
        namespace: h.namespace,
        channel: 'webhook',
        limit: 10,
        targetId: move,
      }),
    ).toEqual({ moved: 1, kept: 1 });
    await receiver.waitForRequests(3, 5000);
    const left = await h.deadLetters();
    expect(left.map((x) => x.delivery.target_id)).toEqual([keep]);
  });

  it('429 with Retry-After: 1 waits at least 1 s (the 1 s tier) although the schedule says 200 ms', async () => {
    let n = 0;
    receiver.respondWith(() => (++n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
    const targetId = await h.addTarget({ kind: 'webhook', config: config(), retry_schedule_ms: [200] });
    const d = deliveryFor(targetId, 'webhook');
    await h.publish(d);
    const [first] = await receiver.waitForRequests(1, 5000);
    const t0 = Date.now();
    await receiver.waitForRequests(2, 5000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(first).toBeDefined();
    const recorded = await eventually(
      async () => (attemptsOf(d.delivery_id).length === 2 ? attemptsOf(d.delivery_id) : undefined),
      5000,
      'two attempts',
    );
    expect(Date.parse(recorded[0]!.next_attempt_at!) - Date.parse(recorded[0]!.attempted_at)).toBeGreaterThanOrEqual(
      1000,
    );
    expect(recorded.map((a) => a.state)).toEqual(['retrying', 'delivered']);
  });

  it.each([
    [
      'a redirect is not followed and is a permanent failure',
      { status: 302, headers: { location: 'http://127.0.0.1:9/elsewhere' } },
    ],
    ['a 404 (4xx other than 408/425/429) is permanent', { status: 404 }],
  ])('%s: one attempt, dead-lettered', async (_n, answer) => {
    receiver.respondWith(answer);
    const targetId = await h.addTarget({ kind: 'webhook', config: config(), retry_schedule_ms: [200, 200] });
    const d = deliveryFor(targetId, 'webhook');
    await h.publish(d);
    const recorded = await eventually(async () => attemptsOf(d.delivery_id)[0], 5000, 'the attempt');
    expect(recorded.state).toBe('failed');
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.requests).toHaveLength(1);
    expect((await h.deadLetters()).map((x) => x.headers['x-relay-dead-reason'])).toEqual(['permanent']);
  });

  it('410 flags the target; its later deliveries are not sent but dead-lettered', async () => {
    receiver.respondWith({ status: 410 });
    const targetId = await h.addTarget({ kind: 'webhook', config: config() });
    await h.publish(deliveryFor(targetId, 'webhook'));
    const flagged = await eventually(
      async () => (await modelsOf(h.store).targets.findById(targetId).lean())?.flagged,
      5000,
      'the flag',
    );
    expect(flagged.reason).toBe('HTTP 410');
    const later = deliveryFor(targetId, 'webhook');
    await h.publish(later);
    const recorded = await eventually(async () => attemptsOf(later.delivery_id)[0], 5000, 'the skipped attempt');
    expect(recorded).toMatchObject({ state: 'failed', error: 'target flagged: HTTP 410', status_code: null });
    expect(receiver.requests).toHaveLength(1);
    expect(await h.deadLetters()).toHaveLength(2);
  });

  it('three permanent failures in a row flag the target (FLAG_AFTER_PERMANENT_FAILURES=3 here)', async () => {
    receiver.respondWith({ status: 422 });
    const targetId = await h.addTarget({ kind: 'webhook', config: config() });
    for (let i = 0; i < 3; i++) {
      await h.publish(deliveryFor(targetId, 'webhook'));
      await receiver.waitForRequests(i + 1, 5000);
    }
    const flagged = await eventually(
      async () => (await modelsOf(h.store).targets.findById(targetId).lean())?.flagged,
      5000,
      'the flag',
    );
    expect(flagged.reason).toBe('3 permanent failures in a row; last: HTTP 422');
    await h.deadLetters();
  });
});

describe('a message that breaks the delivery contract', () => {
  it('is dead-lettered at once: no attempt, no retry, nothing recorded', async () => {
    const names = brokerNames(h.namespace);
    const before = h.attempts.length;
    h.inspect.publish(
      names.deliveriesExchange,
      'webhook',
      Buffer.from(JSON.stringify({ type: 'relay.delivery.v1', attempt: 'one' })),
      { persistent: true, messageId: 'broken_1' },
    );
    const dead = await eventually(
      async () => (await h.inspect.get(names.deadDeliveryQueue('webhook'), { noAck: true })) || undefined,
      5000,
      'the broken message in the dead-letter queue',
    );
    expect(dead.properties.messageId).toBe('broken_1');
    expect(h.attempts.length).toBe(before);
  });
});

describe('a receiver that resets a kept-alive connection', () => {
  it('every request it received appears in the attempt records: the re-sent one as `resends`', async () => {
    const closing = await ClosingReceiver.start();
    try {
      const v = kind.validateConfig({ url: closing.url(), enforce_https: false });
      if (!v.ok) throw new Error(JSON.stringify(v.errors));
      const targetId = await h.addTarget({ kind: 'webhook', config: v.value as unknown as Record<string, unknown> });
      const ids: string[] = [];
      // one after the other: the second finds the first's kept-alive connection, which is reset
      for (let i = 0; i < 2; i++) {
        const d = deliveryFor(targetId, 'webhook');
        ids.push(d.delivery_id);
        await h.publish(d);
        await eventually(
          async () => attemptsOf(d.delivery_id).length === 1 || undefined,
          10_000,
          'an attempt recorded',
        );
      }
      const attempts = ids.flatMap(attemptsOf);
      expect(attempts.map((a) => [a.state, a.status_code, a.resends])).toEqual([
        ['delivered', 200, undefined],
        ['delivered', 200, 1],
      ]);
      const received = closing.seen.answered + closing.seen.resets;
      expect(attempts.reduce((n, a) => n + 1 + (a.resends ?? 0), 0)).toBe(received);
      expect(closing.seen).toEqual({ connections: 2, answered: 2, resets: 1 });
    } finally {
      await closing.close();
    }
  });
});
