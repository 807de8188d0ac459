import { PassThrough } from 'node:stream';
import { Redis } from 'ioredis';
import { BreakerRedis, gateKeys, RedisTargetGate } from '@relay/target-gate';
import { createLogger } from '@relay/logging';
import type { TargetRecord } from '@relay/store';
import { BREAKER_DEFAULTS } from '@relay/targets';
import type { AttemptResult, BreakerSettings } from '@relay/targets';
import { eventually, infra, testNamespace } from '../../support/infra';

/*
 * The limiter and breaker state machines as they run: the Lua scripts on the real Redis
 * (docs/delivery-limits.md). Counts and states are asserted, never how long something took.
 */

const { namespace } = testNamespace('tgate');
const redis = new Redis(infra.redisUrl);
const gate = new BreakerRedis(redis, namespace);
const FAST: BreakerSettings = {
  ...BREAKER_DEFAULTS,
  min_attempts: 10,
  failure_rate_pct: 50,
  window_s: 60,
  cool_down_s: 1,
};
let n = 0;
const tg = (): string => `tg_${++n}_${Date.now()}`;

afterAll(async () => {
  const keys = await redis.keys(`${namespace}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

describe('limiter: rate and in-flight, shared by every caller', () => {
  it('a rate of 10 a second lets exactly 10 of 30 through; the held ones are told to wait one interval apart', async () => {
    const id = tg();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        gate.gate(id, { rate: 10, windowMs: 1000, maxInFlight: null }, BREAKER_DEFAULTS, 5000),
      ),
    );
    expect(answers.filter((a) => a.verdict === 'go')).toHaveLength(10);
    const held = answers.flatMap((a) => (a.verdict === 'hold' ? [a] : []));
    expect(held).toHaveLength(20);
    expect(new Set(held.map((a) => a.reason))).toEqual(new Set(['rate']));
    // spread: the last waiter waits about 19 intervals (100 ms each) longer than the first
    const waits = held.map((a) => a.waitMs).sort((a, b) => a - b);
    expect(waits[19]! - waits[0]!).toBeGreaterThanOrEqual(1800);
    expect(await redis.zcard(gateKeys(namespace, id).rate)).toBe(10);
  });

  it('at most 2 in flight: a third waits until a lease is given back, or until one expires', async () => {
    const id = tg();
    const limits = { rate: null, windowMs: 1000, maxInFlight: 2 };
    const a = await gate.gate(id, limits, BREAKER_DEFAULTS, 60_000);
    const b = await gate.gate(id, limits, BREAKER_DEFAULTS, 300);
    expect([a.verdict, b.verdict]).toEqual(['go', 'go']);
    expect(await gate.gate(id, limits, BREAKER_DEFAULTS, 60_000)).toMatchObject({
      verdict: 'hold',
      reason: 'in_flight',
    });
    if (a.verdict === 'hold') throw new Error('unreachable');
    await gate.report(id, { ok: 1, failed: 0 }, [a.lease], BREAKER_DEFAULTS);
    expect((await gate.gate(id, limits, BREAKER_DEFAULTS, 60_000)).verdict).toBe('go');
    // b's lease (300 ms) expires by itself: a SIGKILLed deliverer does not hold its slot for ever
    await eventually(
      async () => (await gate.gate(id, limits, BREAKER_DEFAULTS, 60_000)).verdict === 'go',
      5000,
      'the expired lease to free its slot',
    );
  });

  it('every key of one target is in one cluster hash slot', () => {
    const k = gateKeys(namespace, 'tg_x');
    const tags = Object.values(k).map((key) => /\{([^}]+)\}/.exec(key)?.[1]);
    expect(new Set(tags)).toEqual(new Set(['tg_x']));
  });
});

describe('breaker: closed → open → half-open → closed or open again; paused by hand', () => {
  it('opens when the window’s failure rate crosses the threshold — one caller wins the transition', async () => {
    const id = tg();
    expect((await gate.report(id, { ok: 5, failed: 4 }, [], FAST)).view.state).toBe('closed'); // 9 < min_attempts
    const reports = await Promise.all([
      gate.report(id, { ok: 0, failed: 1 }, [], FAST),
      gate.report(id, { ok: 0, failed: 1 }, [], FAST),
    ]);
    expect(reports.filter((r) => r.won)).toHaveLength(1);
    expect(reports.map((r) => r.view.state)).toEqual(['open', 'open']);
    expect(reports[0]!.view.reason).toMatch(/^\d+ of \d+ attempts failed in 60 s$/);
  });

  it('a mostly healthy target stays closed', async () => {
    const id = tg();
    for (let i = 0; i < 5; i++)
      expect((await gate.report(id, { ok: 8, failed: 2 }, [], FAST)).view.state).toBe('closed');
  });

  it('while open deliveries are held; after the cool-down exactly one probe goes; its failure opens it again, its success closes it', async () => {
    const id = tg();
    await gate.report(id, { ok: 0, failed: 10 }, [], FAST);
    const held = await gate.gate(id, null, FAST, 5000);
    expect(held).toMatchObject({ verdict: 'hold', reason: 'open' });
    expect(held.verdict === 'hold' && held.waitMs).toBeLessThanOrEqual(1000);
    const probe = await eventually(
      async () => {
        // one connection: Redis runs the five in the order sent, so the cool-down may end between two
        const answers = await Promise.all(Array.from({ length: 5 }, () => gate.gate(id, null, FAST, 5000)));
        const probes = answers.filter((a) => a.verdict === 'probe');
        if (probes.length === 0) return undefined;
        expect(probes).toHaveLength(1);
        expect(probes[0]!.won).toBe(true);
        const at = answers.indexOf(probes[0]!);
        const reasons = answers.map((a) => a.verdict === 'hold' && a.reason);
        // held as open before the cool-down ended, as half-open behind the one probe after it
        expect(reasons.slice(0, at)).toEqual(Array(at).fill('open'));
        expect(reasons.slice(at + 1)).toEqual(Array(4 - at).fill('half_open'));
        return probes[0]!;
      },
      5000,
      'a probe after the cool-down',
    );
    if (probe.verdict !== 'probe') throw new Error('unreachable');
    const failed = await gate.probed(id, probe.lease, false, 'HTTP 500');
    expect(failed).toMatchObject({ won: true, view: { state: 'open', reason: 'probe failed: HTTP 500' } });
    const second = await eventually(
      async () => {
        const a = await gate.gate(id, null, FAST, 5000);
        return a.verdict === 'probe' ? a : undefined;
      },
      5000,
      'the second probe',
    );
    if (second.verdict !== 'probe') throw new Error('unreachable');
    expect(await gate.probed(id, second.lease, true, '')).toMatchObject({
      won: true,
      view: { state: 'closed', reason: 'probe succeeded' },
    });
    expect((await gate.gate(id, null, FAST, 5000)).verdict).toBe('go');
  });

  it('a probe that sent nothing only lets the lock go: the next delivery probes', async () => {
    const id = tg();
    await gate.report(id, { ok: 0, failed: 10 }, [], FAST);
    const probe = await eventually(
      async () => {
        const a = await gate.gate(id, null, FAST, 5000);
        return a.verdict === 'probe' ? a : undefined;
      },
      5000,
      'a probe',
    );
    if (probe.verdict !== 'probe') throw new Error('unreachable');
    expect(await gate.probed(id, probe.lease, null, '')).toMatchObject({ won: false, view: { state: 'half_open' } });
    expect((await gate.gate(id, null, FAST, 5000)).verdict).toBe('probe');
  });

  it('open longer than flag-after: exactly one caller is told to flag', async () => {
    const id = tg();
    const settings = { ...FAST, cool_down_s: 3600, flag_after_open_s: 1 };
    await gate.report(id, { ok: 0, failed: 10 }, [], settings);
    expect((await gate.gate(id, null, settings, 5000)).flag).toBe(false);
    const flagged = await eventually(
      async () => {
        const answers = await Promise.all(Array.from({ length: 4 }, () => gate.gate(id, null, settings, 5000)));
        return answers.some((a) => a.flag) ? answers : undefined;
      },
      5000,
      'the flag',
    );
    expect(flagged.filter((a) => a.flag)).toHaveLength(1);
    expect((await gate.gate(id, null, settings, 5000)).flag).toBe(false);
  });

  it('paused by hand: everything held whatever the limits; resumed: closed with an empty window', async () => {
    const id = tg();
    await gate.report(id, { ok: 0, failed: 9 }, [], FAST);
    expect(await gate.setByHand(id, 'paused', 'paused by ab12')).toMatchObject({
      won: true,
      view: { state: 'paused', reason: 'paused by ab12' },
    });
    expect((await gate.setByHand(id, 'paused', 'again')).won).toBe(false);
    // just paused: asked again after the shortest wait (a tenth of the time paused, 1 s at least)
    expect(await gate.gate(id, null, FAST, 5000)).toMatchObject({ verdict: 'hold', reason: 'paused', waitMs: 1_000 });
    expect((await gate.report(id, { ok: 0, failed: 50 }, [], FAST)).view.state).toBe('paused');
    expect(await gate.setByHand(id, 'closed', 'resumed by ab12')).toMatchObject({
      won: true,
      view: { state: 'closed' },
    });
    // the 9 failures before the pause are gone: one more does not open it
    expect((await gate.report(id, { ok: 0, failed: 1 }, [], FAST)).view.state).toBe('closed');
    expect((await gate.read(id)).state).toBe('closed');
  });

  it('a paused target is asked about again after a tenth of the time it has been paused, from 1 s to 60 s', async () => {
    const id = tg();
    await gate.setByHand(id, 'paused', 'paused by ab12');
    const pausedFor = async (ms: number): Promise<number> => {
      await redis.hset(gateKeys(namespace, id).breaker, 'since', Date.now() - ms);
      const answer = await gate.gate(id, null, FAST, 5000);
      return answer.verdict === 'hold' ? answer.waitMs : -1;
    };
    expect(await pausedFor(0)).toBe(1_000);
    expect(await pausedFor(100_000)).toBeGreaterThanOrEqual(10_000);
    expect(await pausedFor(100_000)).toBeLessThan(10_100);
    expect(await pausedFor(3_600_000)).toBe(60_000);
  });
});

describe('the gate’s batches on the real Redis: successes wait, a failure takes them along', () => {
  it('with successes pending, failures open the breaker at the documented threshold — not before', async () => {
    // min 5 attempts at 50 %; a window of an hour lets successes wait a minute (a tenth of its 10-minute bucket)
    const settings: BreakerSettings = { ...BREAKER_DEFAULTS, min_attempts: 5, failure_rate_pct: 50, window_s: 3600 };
    const id = tg();
    const at = new Date();
    const target: TargetRecord = {
      id,
      account_id: 'acc',
      endpoint_id: 'ep',
      kind: 'webhook',
      name: 't',
      enabled: true,
      config: {},
      flagged: null,
      breaker: settings,
      created_at: at,
      updated_at: at,
    };
    const changed: Array<[string, boolean]> = [];
    const batches = new RedisTargetGate({
      breaker: gate,
      sync: { changed: async (_t, view, won) => void changed.push([view.state, won]), flag: async () => undefined },
      logger: createLogger({ service: 'test', level: 'error', stream: new PassThrough() }),
      leaseMs: 60_000,
      flushMs: 20,
      quietFlushMs: 60_000,
    });
    const ok: AttemptResult = { result: 'success', status: 200 };
    const down: AttemptResult = { result: 'retry', status: 503, error: 'HTTP 503' };
    const settle = (outcome: AttemptResult) => batches.settle(target, { verdict: 'go', lease: null }, outcome, true);
    /** attempts and failures the breaker's window holds in Redis */
    const windowOf = async () => {
      const h = await redis.hgetall(gateKeys(namespace, id).breaker);
      const sum = (p: string) => [0, 1, 2, 3, 4, 5].reduce((n, i) => n + Number(h[`${p}${i}`] ?? 0), 0);
      return { total: sum('o') + sum('f'), failed: sum('f') };
    };

    for (let i = 0; i < 10; i++) await settle(ok);
    expect(await windowOf()).toEqual({ total: 0, failed: 0 });
    for (let i = 0; i < 5; i++) await settle(down);
    // 5 failures with the 10 pending successes: 33 %, closed (alone, 5 of 5 would have opened it)
    await eventually(async () => (await windowOf()).total === 15, 10_000, 'the failures’ batch');
    expect(await windowOf()).toEqual({ total: 15, failed: 5 });
    expect((await gate.read(id)).state).toBe('closed');
    for (let i = 0; i < 5; i++) await settle(down);
    // 10 of 20: the threshold; the report that saw it opened the breaker and this process won it
    const view = await eventually(
      async () => {
        const v = await gate.read(id);
        return v.state === 'open' ? v : undefined;
      },
      10_000,
      'the breaker to open',
    );
    expect(view.reason).toBe('10 of 20 attempts failed in 3600 s');
    await eventually(async () => changed.length > 0, 10_000, 'the transition synced');
    expect(changed).toEqual([['open', true]]);
    await batches.close();
  });
});
