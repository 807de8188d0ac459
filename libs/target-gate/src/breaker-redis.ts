import { randomBytes } from 'node:crypto';
import type { RedisClient } from '@relay/cache';
import type { BreakerStateName } from '@relay/store';
import type { BreakerSettings } from '@relay/targets';
import { gateKeys } from './keys';
import type { EffectiveLimits } from './limits';
import { GATE, GIVE_BACK, PROBE, READ, REPORT, SET_BY_HAND } from './scripts';
import type { HoldReason } from './verdict';

/** The breaker as Redis holds it: `since` in ms of Redis' clock (0: no state kept: closed). */
export interface BreakerView {
  state: BreakerStateName;
  since: number;
  reason: string;
  seq: number;
}

export type GateAnswer =
  | {
      verdict: 'go' | 'probe';
      lease: string;
      view: BreakerView;
      won: boolean;
      flag: boolean;
      /** a batch's rate-log entries and leases (allowance.ts); a single call's lease is `lease` */
      tokens?: string[];
      slots?: string[];
    }
  | { verdict: 'hold'; reason: HoldReason; waitMs: number; view: BreakerView; won: boolean; flag: boolean };

/** What a batch call asks: how many of each, for how long, and what this process gives back. */
export interface BatchRequest {
  tokens: number;
  slots: number;
  validMs: number;
  giveBack: { tokens: string[]; slots: string[] };
}

export interface ReportAnswer {
  view: BreakerView;
  /** this call made the transition (it opened, closed or was paused/resumed by it) */
  won: boolean;
}

/**
 * The scripts of scripts.ts, called for one target at a time (one round trip each). The
 * management API uses `setByHand` and `read`; the deliverer all of them.
 */
export class BreakerRedis {
  /** lease ids: a random prefix per process and a counter (unique without a random draw per call) */
  private readonly leasePrefix = randomBytes(6).toString('base64url');
  private leaseCount = 0;

  constructor(
    private readonly redis: RedisClient,
    private readonly namespace: string,
  ) {
    // EVALSHA with a fallback to EVAL (ioredis): the scripts are not sent with every call
    for (const [name, lua, keys] of SCRIPTS)
      if (!(name in redis)) redis.defineCommand(name, { lua, numberOfKeys: keys });
  }

  private run(name: string, ...args: (string | number)[]): Promise<unknown[]> {
    return (this.redis as unknown as Record<string, (...a: (string | number)[]) => Promise<unknown[]>>)[name]!(...args);
  }

  /**
   * One delivery's pass, or with `batch` a batch of tokens and slots for this process
   * (allowance.ts), giving back what the last batch did not spend.
   */
  async gate(
    targetId: string,
    limits: EffectiveLimits | null,
    settings: BreakerSettings,
    leaseMs: number,
    batch?: BatchRequest,
  ): Promise<GateAnswer> {
    const k = gateKeys(this.namespace, targetId);
    const lease = `${this.leasePrefix}${(this.leaseCount++).toString(36)}`;
    const back = batch ? [batch.giveBack.tokens.length, ...batch.giveBack.tokens, ...batch.giveBack.slots] : [0];
    const r = (await this.run(
      'relayTargetGate',
      k.breaker,
      k.rate,
      k.flight,
      k.probe,
      lease,
      limits?.rate ?? 0,
      limits?.windowMs ?? 1000,
      limits?.maxInFlight ?? 0,
      leaseMs,
      settings.cool_down_s * 1000,
      settings.flag_after_open_s * 1000,
      batch?.tokens ?? 1,
      batch?.slots ?? 1,
      batch?.validMs ?? 0,
      ...back,
    )) as unknown[];
    const view = viewOf(r.slice(3, 7));
    const won = Number(r[7]) === 1;
    const flag = Number(r[8]) === 1;
    if (r[0] === 'hold')
      return { verdict: 'hold', reason: r[1] as HoldReason, waitMs: Math.max(0, Number(r[2])), view, won, flag };
    if (!batch || r[0] !== 'go') return { verdict: r[0] as 'go' | 'probe', lease, view, won, flag };
    const tokens = Array.from({ length: Number(r[9]) || 0 }, (_, i) => `${lease}#${i + 1}`);
    const slots = Array.from({ length: Number(r[10]) || 0 }, (_, i) => (i === 0 ? lease : `${lease}#${i + 1}`));
    return { verdict: 'go', lease, view, won, flag, tokens, slots };
  }

  /** A process's unspent tokens and idle slots, given back (allowance.ts). */
  async giveBack(targetId: string, tokens: readonly string[], slots: readonly string[]): Promise<void> {
    const k = gateKeys(this.namespace, targetId);
    await this.run('relayTargetGiveBack', k.rate, k.flight, tokens.length, ...tokens, ...slots);
  }

  /** Outcomes since the last report (the breaker's window) and the leases they let go. */
  async report(
    targetId: string,
    counts: { ok: number; failed: number },
    leases: readonly string[],
    settings: BreakerSettings,
  ): Promise<ReportAnswer> {
    const k = gateKeys(this.namespace, targetId);
    const r = (await this.run(
      'relayTargetReport',
      k.breaker,
      k.flight,
      counts.ok,
      counts.failed,
      settings.window_s * 1000,
      settings.min_attempts,
      settings.failure_rate_pct,
      ...leases,
    )) as unknown[];
    return { view: viewOf(r.slice(0, 4)), won: Number(r[4]) === 1 };
  }

  /** The probe's end: `answered` true closes, false opens again, null (nothing sent) only lets the lock go. */
  async probed(targetId: string, lease: string, answered: boolean | null, why: string): Promise<ReportAnswer> {
    const k = gateKeys(this.namespace, targetId);
    const r = (await this.run(
      'relayTargetProbed',
      k.breaker,
      k.probe,
      lease,
      answered === null ? '-' : answered ? '1' : '0',
      why.slice(0, 200),
    )) as unknown[];
    return { view: viewOf(r.slice(0, 4)), won: Number(r[4]) === 1 };
  }

  /** Pause (from any state) or resume (from paused: closed, with an empty window). */
  async setByHand(targetId: string, to: 'paused' | 'closed', why: string): Promise<ReportAnswer> {
    const k = gateKeys(this.namespace, targetId);
    const r = (await this.run('relayTargetSetByHand', k.breaker, to, why.slice(0, 200))) as unknown[];
    return { view: viewOf(r.slice(0, 4)), won: Number(r[4]) === 1 };
  }

  async read(targetId: string): Promise<BreakerView> {
    const k = gateKeys(this.namespace, targetId);
    return viewOf(await this.run('relayTargetRead', k.breaker));
  }
}

const SCRIPTS: ReadonlyArray<readonly [string, string, number]> = [
  ['relayTargetGate', GATE, 4],
  ['relayTargetGiveBack', GIVE_BACK, 2],
  ['relayTargetReport', REPORT, 2],
  ['relayTargetProbed', PROBE, 2],
  ['relayTargetSetByHand', SET_BY_HAND, 1],
  ['relayTargetRead', READ, 1],
];

function viewOf(r: unknown[]): BreakerView {
  return {
    state: String(r[0]) as BreakerStateName,
    since: Number(r[1]) || 0,
    reason: String(r[2] ?? ''),
    seq: Number(r[3]) || 0,
  };
}
