import { setTimeout as sleep } from 'node:timers/promises';
import { PassThrough } from 'node:stream';
import { Redis } from 'ioredis';
import { BreakerRedis, gateKeys, RedisTargetGate } from '@relay/target-gate';
import type { GateVerdict, Pass } from '@relay/target-gate';
import { createLogger } from '@relay/logging';
import type { TargetRecord } from '@relay/store';
import { CATALOG } from '@relay/targets';
import type { KindInfo } from '@relay/targets';
import { infra, testNamespace } from '../../support/infra';

/*
 * A limit taken from Redis a batch at a time (docs/delivery-limits.md "Batches of a limit"),
 * shared by two gates — two deliverer instances, each with its own Redis connection — on the
 * real Redis: the limit holds exactly or stricter across both. Each run is bounded in time and
 * in count; sends are timed on the machine's clock, which is Redis' too (same host). Asserted:
 * counts, never how long anything took.
 */

const { namespace } = testNamespace('tallow');
const webhook = CATALOG.entries.find((e) => e.kind === 'webhook') as KindInfo;
const connections: Redis[] = [];
const gates: RedisTargetGate[] = [];
const NOW = new Date();
let n = 0;

type TargetLimits = NonNullable<TargetRecord['limits']>;
/** GATE calls made by every gate of this file (the real script, counted on its way) */
let gateCalls = 0;

function newGate(): RedisTargetGate {
  const redis = new Redis(infra.redisUrl);
  connections.push(redis);
  const breaker = new BreakerRedis(redis, namespace);
  const gate = new RedisTargetGate({
    breaker: {
      gate: (...args) => (gateCalls++, breaker.gate(...args)),
      report: (...args) => breaker.report(...args),
      probed: (...args) => breaker.probed(...args),
      giveBack: (...args) => breaker.giveBack(...args),
    },
    sync: { changed: async () => undefined, flag: async () => undefined },
    logger: createLogger({ service: 'test', level: 'error', stream: new PassThrough() }),
    leaseMs: 60_000,
    flushMs: 50,
    quietFlushMs: 1000,
  });
  gates.push(gate);
  return gate;
}

function targetWith(limits: TargetLimits): TargetRecord {
  return {
    id: `tg_${++n}_${Date.now()}`,
    account_id: 'acc',
    endpoint_id: 'ep',
    kind: 'webhook',
    name: 't',
    enabled: true,
    config: {},
    flagged: null,
    limits,
    created_at: NOW,
    updated_at: NOW,
  };
}

/**
 * `workers` concurrent deliveries per gate, each admitting, "sending" for `sendMs` and settling,
 * until `runMs` have passed or each made `maxTries` admits; a held one asks again after at most 25 ms.
 */
async function drive(
  gate: RedisTargetGate,
  target: TargetRecord,
  opts: { workers: number; runMs: number; maxTries: number; sendMs: () => number; onSend: (pass: Pass) => () => void },
): Promise<void> {
  const end = Date.now() + opts.runMs;
  await Promise.all(
    Array.from({ length: opts.workers }, async () => {
      for (let i = 0; i < opts.maxTries && Date.now() < end; i++) {
        const verdict: GateVerdict = await gate.admit(target, webhook);
        if (verdict.verdict === 'hold') {
          await sleep(Math.min(25, verdict.waitMs));
          continue;
        }
        const done = opts.onSend(verdict);
        await sleep(opts.sendMs());
        done();
        await gate.settle(target, verdict, { result: 'success', status: 200 }, true);
      }
    }),
  );
}

afterAll(async () => {
  await Promise.all(gates.map((g) => g.close()));
  const keys = await connections[0]!.keys(`${namespace}:*`);
  if (keys.length) await connections[0]!.del(...keys);
  for (const c of connections) c.disconnect();
});

describe('a limit taken a batch at a time holds across two deliverer instances', () => {
  it('20 a second (batches of 2 tokens): no window of a second holds more than 20 sends of the two', async () => {
    const target = targetWith({ rate: 20, per: 'second', max_in_flight: null });
    const sends: number[] = [];
    const [a, b] = [newGate(), newGate()];
    const run = {
      workers: 6,
      runMs: 2500,
      maxTries: 400,
      sendMs: () => 0,
      onSend: () => (sends.push(Date.now()), () => undefined),
    };
    await Promise.all([drive(a, target, run), drive(b, target, run)]);
    sends.sort((x, y) => x - y);
    // more than one window's worth went out, so windows were really shared
    expect(sends.length).toBeGreaterThan(20);
    // every window [s, s + 1 s) starting at a send; 2 ms less for the two clocks' rounding to ms
    const worst = Math.max(...sends.map((s) => sends.filter((t) => t >= s && t < s + 998).length));
    expect(worst).toBeLessThanOrEqual(20);
  });

  it('20 in flight (batches of 2 slots): never more than 20 attempts at once across the two, and every slot is given back', async () => {
    const target = targetWith({ rate: null, per: 'second', max_in_flight: 20 });
    let inFlight = 0;
    let most = 0;
    let sent = 0;
    const [a, b] = [newGate(), newGate()];
    const run = {
      workers: 15,
      runMs: 2000,
      maxTries: 200,
      sendMs: () => 2 + Math.floor(Math.random() * 10),
      onSend: () => {
        inFlight++;
        sent++;
        most = Math.max(most, inFlight);
        return () => void inFlight--;
      },
    };
    await Promise.all([drive(a, target, run), drive(b, target, run)]);
    expect(sent).toBeGreaterThan(40);
    expect(most).toBeLessThanOrEqual(20);
    // shutdown gives back what each share holds; the reports give back the rest
    await Promise.all([a.close(), b.close()]);
    expect(await connections[0]!.zcard(gateKeys(namespace, target.id).flight)).toBe(0);
  });

  it('a rate and an in-flight limit together (10,000 a second, 1,000 in flight): 300 deliveries by two instances cost far fewer than 300 calls', async () => {
    const target = targetWith({ rate: 10_000, per: 'second', max_in_flight: 1000 });
    const [a, b] = [newGate(), newGate()];
    const before = gateCalls;
    let sent = 0;
    const run = { workers: 10, runMs: 20_000, maxTries: 15, sendMs: () => 1, onSend: () => (sent++, () => undefined) };
    await Promise.all([drive(a, target, run), drive(b, target, run)]);
    expect(sent).toBe(300);
    // a batch is 64 tokens and 64 slots, each valid 100 ms: a handful of calls per instance, never one per delivery
    expect(gateCalls - before).toBeLessThan(60);
  });
});
