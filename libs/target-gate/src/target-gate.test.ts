import { PassThrough } from 'node:stream';
import { createLogger } from '@relay/logging';
import type { TargetRecord } from '@relay/store';
import type { AttemptResult, KindInfo } from '@relay/targets';
import type { BreakerView, GateAnswer, ReportAnswer } from './breaker-redis';
import { RedisTargetGate } from './target-gate';
import type { GateScripts } from './target-gate';

/*
 * What the gate in front of every attempt asks Redis and when (docs/delivery-limits.md), against
 * an in-memory fake of its scripts: the round trips it spends per delivery, the batching of
 * outcomes, the lease, the probe, syncing a state once, failing open. The scripts themselves
 * (the state machines) run on the real Redis: test/integration/delivery/target-gate.test.ts.
 */

const NOW = new Date('2030-01-01T00:00:00Z');
const closed: BreakerView = { state: 'closed', since: 0, reason: '', seq: 0 };
const open: BreakerView = { state: 'open', since: 1000, reason: '10 of 10 attempts failed in 60 s', seq: 1 };
const webhook: KindInfo = {
  kind: 'webhook',
  channel: 'webhook',
  defaultRetryScheduleMs: [],
  description: { label: 'W', fields: {} },
  resendable: true,
};
const chat: KindInfo = {
  ...webhook,
  kind: 'block_chat',
  channel: 'chat',
  defaultLimits: { rate: 1, per: 'second', max_in_flight: null },
};
const ok: AttemptResult = { result: 'success', status: 200 };
const down: AttemptResult = { result: 'retry', status: 500, error: 'HTTP 500' };
const refused: AttemptResult = { result: 'permanent', status: 400, error: 'HTTP 400', flagTarget: false };

function target(over: Partial<TargetRecord> = {}): TargetRecord {
  return {
    id: 'tg_1',
    account_id: 'acc',
    endpoint_id: 'ep',
    kind: 'webhook',
    name: 't',
    enabled: true,
    config: {},
    flagged: null,
    created_at: NOW,
    updated_at: NOW,
    ...over,
  };
}

function setup(
  answers: { gate?: GateAnswer | Error; report?: ReportAnswer; probed?: ReportAnswer } = {},
  timing = { flushMs: 60_000, quietFlushMs: 600_000 },
) {
  const calls: Array<[string, ...unknown[]]> = [];
  const synced: Array<[string, boolean]> = [];
  const flags: string[] = [];
  const scripts: GateScripts = {
    gate: async (id, limits) => {
      calls.push(['gate', id, limits]);
      if (answers.gate instanceof Error) throw answers.gate;
      return answers.gate ?? { verdict: 'go', lease: 'L', view: closed, won: false, flag: false };
    },
    report: async (id, counts, leases) => {
      calls.push(['report', id, { ok: counts.ok, failed: counts.failed }, [...leases]]);
      return answers.report ?? { view: closed, won: false };
    },
    probed: async (id, lease, answered) => {
      calls.push(['probed', id, lease, answered]);
      return answers.probed ?? { view: closed, won: true };
    },
    giveBack: async (id, tokens, slots) => void calls.push(['giveBack', id, tokens.length, slots.length]),
  };
  const gate = new RedisTargetGate({
    breaker: scripts,
    logger: createLogger({ service: 'test', level: 'error', stream: new PassThrough() }),
    leaseMs: 60_000,
    ...timing,
    sync: {
      changed: async (_t, view, won) => void synced.push([view.state, won]),
      flag: async (t) => void flags.push(t.id),
    },
  });
  return { gate, calls, synced, flags };
}

describe('the target gate: round trips per delivery', () => {
  it('a target without limits whose cached breaker is closed costs no round trip; its outcomes go in one batch per target', async () => {
    const { gate, calls } = setup();
    for (const outcome of [ok, ok, down, refused]) {
      const pass = await gate.admit(target(), webhook);
      expect(pass).toEqual({ verdict: 'go', lease: null });
      await gate.settle(target(), pass as { verdict: 'go'; lease: null }, outcome, true);
    }
    await gate.settle(target({ id: 'tg_2' }), { verdict: 'go', lease: null }, down, true);
    expect(calls).toEqual([]);
    await gate.flush();
    // a refusal (4xx) is neither: the receiver is up
    expect(calls).toEqual([
      ['report', 'tg_1', { ok: 2, failed: 1 }, []],
      ['report', 'tg_2', { ok: 0, failed: 1 }, []],
    ]);
  });

  it('a target with limits (its own or its kind’s) asks once before the attempt; a lease only when it limits deliveries in flight', async () => {
    const { gate, calls } = setup();
    expect(await gate.admit(target({ kind: 'block_chat' }), chat)).toEqual({ verdict: 'go', lease: null });
    expect(calls).toEqual([['gate', 'tg_1', { rate: 1, windowMs: 1000, maxInFlight: null }]]);
    const limited = target({ limits: { rate: null, per: 'second', max_in_flight: 2 } });
    const pass = await gate.admit(limited, webhook);
    expect(pass).toEqual({ verdict: 'go', lease: 'L' });
    await gate.settle(limited, pass as { verdict: 'go'; lease: string }, ok, true);
    await gate.flush();
    expect(calls[2]).toEqual(['report', 'tg_1', { ok: 1, failed: 0 }, ['L']]);
  });

  it('a limit large enough to batch (10,000 a second, 1,000 in flight): one call for several deliveries; a slot kept for the next delivery is not reported', async () => {
    const batch: GateAnswer = {
      verdict: 'go',
      lease: 'B',
      view: closed,
      won: false,
      flag: false,
      tokens: ['B#1', 'B#2', 'B#3'],
      slots: ['B', 'B#2'],
    };
    const { gate, calls } = setup({ gate: batch });
    const t = target({ limits: { rate: 10_000, per: 'second', max_in_flight: 1000 } });
    const a = (await gate.admit(t, webhook)) as { verdict: 'go'; lease: string };
    const b = (await gate.admit(t, webhook)) as { verdict: 'go'; lease: string };
    expect([a, b]).toEqual([
      { verdict: 'go', lease: 'B#2' },
      { verdict: 'go', lease: 'B' },
    ]);
    await gate.settle(t, a, ok, true);
    const c = (await gate.admit(t, webhook)) as { verdict: 'go'; lease: string };
    expect(c).toEqual({ verdict: 'go', lease: 'B#2' });
    expect(calls.filter((x) => x[0] === 'gate')).toHaveLength(1);
    await gate.settle(t, b, ok, true);
    await gate.settle(t, c, down, true);
    await gate.flush();
    expect(calls.at(-1)).toEqual(['report', 'tg_1', { ok: 2, failed: 1 }, []]);
  });

  it('a breaker the cache shows as open asks before every attempt, even without limits; a hold says why and how long', async () => {
    const { gate, calls } = setup({
      gate: { verdict: 'hold', reason: 'open', waitMs: 1234, view: open, won: false, flag: false },
    });
    const t = target({ breaker_state: { state: 'open', since: new Date(1000), reason: 'x', seq: 1 } });
    expect(await gate.admit(t, webhook)).toEqual({ verdict: 'hold', reason: 'open', waitMs: 1234 });
    expect(calls).toHaveLength(1);
  });

  it('Redis not answering: the delivery is sent (fail open)', async () => {
    const { gate } = setup({ gate: new Error('Connection is closed.') });
    expect(await gate.admit(target({ kind: 'block_chat' }), chat)).toEqual({ verdict: 'go', lease: null });
  });
});

describe('the target gate: states it learns', () => {
  it('a probe’s outcome is reported at once: answered (success or a refusal) closes, a failure reopens, nothing sent only lets go', async () => {
    const { gate, calls, synced } = setup();
    const t = target({ breaker_state: { state: 'half_open', since: NOW, reason: '', seq: 2 } });
    await gate.settle(t, { verdict: 'probe', lease: 'P' }, ok, true);
    await gate.settle(t, { verdict: 'probe', lease: 'P' }, refused, true);
    await gate.settle(t, { verdict: 'probe', lease: 'P' }, down, true);
    await gate.settle(t, { verdict: 'probe', lease: 'P' }, refused, false);
    expect(calls.map((c) => c[3])).toEqual([true, true, false, null]);
    expect(synced[0]).toEqual(['closed', true]);
  });

  it('a report that opened the breaker syncs it as won; a state Redis holds that the cache does not show syncs once per process', async () => {
    const { gate, synced } = setup({ report: { view: open, won: true } });
    await gate.settle(target(), { verdict: 'go', lease: null }, down, true);
    await gate.flush();
    expect(synced).toEqual([['open', true]]);
    const quiet = setup({ report: { view: open, won: false } });
    for (let i = 0; i < 3; i++) {
      await quiet.gate.settle(target(), { verdict: 'go', lease: null }, down, true);
      await quiet.gate.flush();
    }
    expect(quiet.synced).toEqual([['open', false]]);
  });

  it('a breaker open too long: the one call Redis picked flags the target', async () => {
    const { gate, flags } = setup({
      gate: { verdict: 'hold', reason: 'open', waitMs: 1000, view: open, won: false, flag: true },
    });
    await gate.admit(target({ breaker_state: { state: 'open', since: new Date(1000), reason: 'x', seq: 1 } }), webhook);
    expect(flags).toEqual(['tg_1']);
  });
});

describe('the target gate: when outcomes are reported (docs/delivery-limits.md "What it costs per delivery")', () => {
  const timing = { flushMs: 100, quietFlushMs: 1000 };
  const go = { verdict: 'go', lease: null } as const;
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('a closed breaker’s successes alone wait for the quiet batch: one call per target per quietFlushMs, not per flushMs', async () => {
    const { gate, calls } = setup({}, timing);
    for (let i = 0; i < 30; i++) {
      await gate.settle(target({ id: `tg_${i % 3}` }), go, ok, true);
      await jest.advanceTimersByTimeAsync(30);
    }
    // 900 ms: three flushMs periods went by with successes gathered, none reported yet
    expect(calls).toEqual([]);
    await jest.advanceTimersByTimeAsync(100);
    expect(calls).toEqual([
      ['report', 'tg_0', { ok: 10, failed: 0 }, []],
      ['report', 'tg_1', { ok: 10, failed: 0 }, []],
      ['report', 'tg_2', { ok: 10, failed: 0 }, []],
    ]);
  });

  it('a failure goes in the next flushMs batch and takes the target’s gathered successes along; other targets’ successes keep waiting', async () => {
    const { gate, calls } = setup({}, timing);
    for (let i = 0; i < 5; i++) await gate.settle(target(), go, ok, true);
    await gate.settle(target({ id: 'tg_2' }), go, ok, true);
    await gate.settle(target(), go, down, true);
    await gate.settle(target(), go, ok, true);
    await jest.advanceTimersByTimeAsync(100);
    expect(calls).toEqual([['report', 'tg_1', { ok: 6, failed: 1 }, []]]);
    // the next successes of tg_1 wait again; tg_2's go with the quiet batch
    await gate.settle(target(), go, ok, true);
    await jest.advanceTimersByTimeAsync(900);
    expect(calls.slice(1)).toEqual([
      ['report', 'tg_2', { ok: 1, failed: 0 }, []],
      ['report', 'tg_1', { ok: 1, failed: 0 }, []],
    ]);
  });

  it('leases go back every flushMs, successes or not: a slot in flight is never held for the quiet batch', async () => {
    const { gate, calls } = setup({}, timing);
    await gate.settle(target(), go, ok, true);
    await gate.settle(target(), { verdict: 'go', lease: 'L1' }, ok, true);
    await jest.advanceTimersByTimeAsync(100);
    expect(calls).toEqual([['report', 'tg_1', { ok: 2, failed: 0 }, ['L1']]]);
  });

  it('successes wait only where quietFlushMs is at most a tenth of the bucket, and only while the cached breaker is closed', async () => {
    const { gate, calls } = setup({}, timing);
    // 59 s window: a bucket of 9.8 s, under 10 × 1000 ms
    await gate.settle(
      target({
        id: 'tg_short',
        breaker: { failure_rate_pct: 50, min_attempts: 20, window_s: 59, cool_down_s: 30, flag_after_open_s: 86_400 },
      }),
      go,
      ok,
      true,
    );
    // the default 60 s window: a bucket of 10 s, exactly ten quiet batches
    await gate.settle(target({ id: 'tg_default' }), go, ok, true);
    // a breaker the cache shows as half-open (a success Redis already closed elsewhere)
    await gate.settle(
      target({ id: 'tg_half', breaker_state: { state: 'half_open', since: NOW, reason: '', seq: 2 } }),
      go,
      ok,
      true,
    );
    await jest.advanceTimersByTimeAsync(100);
    expect(calls.map((c) => c[1])).toEqual(['tg_short', 'tg_half']);
    await jest.advanceTimersByTimeAsync(900);
    expect(calls.map((c) => c[1])).toEqual(['tg_short', 'tg_half', 'tg_default']);
  });

  it('flush sends both batches at once (shutdown)', async () => {
    const { gate, calls } = setup({}, timing);
    await gate.settle(target(), go, ok, true);
    await gate.settle(target({ id: 'tg_2' }), go, down, true);
    await gate.flush();
    expect(calls.map((c) => c[1]).sort()).toEqual(['tg_1', 'tg_2']);
    await jest.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(2);
  });

  it('memory stays bounded: 10,000 targets gathered in both batches together send everything at once', async () => {
    const { gate, calls } = setup({}, timing);
    for (let i = 0; i < 9_999; i++) await gate.settle(target({ id: `tg_q${i}` }), go, ok, true);
    expect(calls).toEqual([]);
    await gate.settle(target({ id: 'tg_f' }), go, down, true);
    await jest.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(10_000);
  });
});
