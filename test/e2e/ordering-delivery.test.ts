import { must } from '@relay/client';
import { brokerNames, ORDERED_PARTITIONS } from '@relay/contracts';
import amqp from 'amqplib';
import { deleteBrokerNamespace, eventually, infra } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import type { CapturedRequest, ReceiverResponse } from '../support/receiver';
import { startService } from '../support/services';
import type { RunningService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Ordering per key (docs/ordering.md) on the real stack: 1,000 events over 50 keys to a webhook
 * target ordered by `key`; the receiver fails the first attempt of every event of 10 keys (each
 * such event waits for its retry, and its key's later events wait behind it); two deliverers
 * sharing the ordered partitions (hand-overs under load), the first SIGKILLed mid-run. Every key's events arrive in the order they
 * were accepted, none is lost, and what the other keys' events waited is reported (p99).
 * Private: it kills a deliverer.
 */
const KEYS = 50;
const PER_KEY = 20;
const SLOW = (k: number): boolean => k % 5 === 0;
/** deliverers that share the partitions out within a second of each other's start */
const DELIVERER = { ORDERING_BALANCE_MS: '500' };
const HANDED_OVER = 'ordered partition given to the next deliverer';
const keyName = (k: number): string => `k${String(k).padStart(2, '0')}`;

interface Arrival {
  key: string;
  seq: number;
  at: number;
}

/**
 * The receiver's answer: 503 to the first attempt of a slow key's event, 200 otherwise; it keeps
 * every request that got 200 and the first arrival of each delivery.
 */
const first = new Map<string, Arrival>();
const requests: Arrival[] = [];
function answer(req: CapturedRequest): ReceiverResponse {
  const body = JSON.parse(req.body.toString('utf8')) as { key: string; seq: number };
  if (Number(req.headers['x-relay-attempt']) === 1 && SLOW(Number(body.key.slice(1))))
    return { status: 503, body: 'busy' };
  const arrival = { key: body.key, seq: body.seq, at: Date.now() };
  requests.push(arrival);
  const id = String(req.headers['x-relay-delivery-id']);
  if (!first.has(id)) first.set(id, arrival);
  return { status: 200, body: 'ok' };
}

let stack: Stack;
let second: RunningService | undefined;
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  receiver.respondWith(answer);
  stack = await startStack('ordering', { overrides: { 'webhook-deliverer': DELIVERER } });
}, 60_000);

afterAll(async () => {
  second?.process.kill('SIGTERM');
  await stack?.stop();
  if (stack) await deleteBrokerNamespace(stack.namespace);
  await receiver?.close();
});

describe('ordering per key with two deliverers, one SIGKILLed mid-run (docs/ordering.md)', () => {
  it("delivers every key's events in acceptance order, loses none, and does not hold other keys", async () => {
    const endpoint = await must(
      stack.client.POST('/v1/endpoints', { body: { name: 'ordered', rate_limit_per_minute: 100000 } }),
    );
    const target = await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId: endpoint.id } },
        body: {
          kind: 'webhook',
          name: 'ordered',
          config: { url: receiver.url('/hook'), enforce_https: false },
          retry_schedule_ms: [300, 1000, 2000],
          ordering: { key: { from: 'path', path: 'key' } },
        },
      }),
    );
    expect(target.ordering).toEqual({ key: { from: 'path', path: 'key' } });

    // the first deliverer took every ordered partition (single active consumer) and gives the
    // second its share; it is killed once it has, while both deliver
    const holder = stack.services['webhook-deliverer']!;
    second = await startService('webhook-deliverer', { ...stack.env, ...DELIVERER });
    const killable = () => first.size >= 200 && holder.output().includes(HANDED_OVER);

    const accepted = new Map<string, number>();
    const ingest = `${stack.services['ingest-gateway']!.url}/relay/${endpoint.id}`;
    let killed = false;
    for (let seq = 0; seq < PER_KEY; seq++) {
      // a key's next event is sent once its previous one was accepted: that is its acceptance order
      await Promise.all(
        Array.from({ length: KEYS }, async (_, k) => {
          const res = await fetch(ingest, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ key: keyName(k), seq }),
          });
          expect(res.status).toBe(202);
          accepted.set(`${keyName(k)}/${seq}`, Date.now());
        }),
      );
      if (!killed && killable()) {
        holder.process.kill('SIGKILL');
        killed = true;
      }
    }
    if (!killed) {
      await eventually(async () => killable(), 30_000, '200 deliveries and a partition handed over before the kill');
      holder.process.kill('SIGKILL');
    }
    await eventually(async () => holder.process.signalCode === 'SIGKILL', 5000, 'the first deliverer to die');

    await eventually(async () => first.size === KEYS * PER_KEY, 90_000, `all ${KEYS * PER_KEY} deliveries`);

    // per key, the first arrivals come in acceptance order, every one of them
    const arrivals = [...first.values()].sort((a, b) => a.at - b.at);
    for (let k = 0; k < KEYS; k++) {
      const seqs = arrivals.filter((a) => a.key === keyName(k)).map((a) => a.seq);
      expect({ key: keyName(k), seqs }).toEqual({
        key: keyName(k),
        seqs: Array.from({ length: PER_KEY }, (_, i) => i),
      });
    }
    // a request that came again (the killed deliverer's unacknowledged ones) came in its key's order too
    for (let k = 0; k < KEYS; k++) {
      const seqs = requests.filter((a) => a.key === keyName(k)).map((a) => a.seq);
      const drops = seqs.filter((s, i) => i > 0 && s < seqs[i - 1]!);
      // only replays of what the killed deliverer held: each drop goes back to an event already delivered
      for (const s of drops) expect(seqs.indexOf(s)).toBeLessThan(seqs.lastIndexOf(s));
    }

    // what the keys with no failure waited from their 202 to their first arrival (reported, not asserted: speed is for benches)
    const waits = [...first.values()]
      .filter((a) => !SLOW(Number(a.key.slice(1))))
      .map((a) => a.at - accepted.get(`${a.key}/${a.seq}`)!)
      .sort((a, b) => a - b);
    const p = (q: number) => waits[Math.min(waits.length - 1, Math.floor(q * waits.length))]!;
    process.stderr.write(
      `ordering: the other keys' delivery latency (202 to first arrival) p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${p(1)} ms over ${waits.length} events\n`,
    );

    // nothing left behind, nothing dead-lettered
    const conn = await amqp.connect(infra.rabbitmqUrl);
    try {
      const ch = await conn.createChannel();
      const names = brokerNames(stack.namespace);
      await eventually(
        async () => {
          for (let k = 0; k < ORDERED_PARTITIONS; k++)
            if ((await ch.checkQueue(names.orderedQueue('webhook', k))).messageCount > 0) return false;
          return true;
        },
        10_000,
        'the ordered partitions to be empty',
      );
      expect((await ch.checkQueue(names.deadDeliveryQueue('webhook'))).messageCount).toBe(0);
    } finally {
      await conn.close();
    }
  }, 180_000);
});
