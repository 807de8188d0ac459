import { LRUCache } from '@relay/cache';
import type { Logger } from '@relay/logging';
import type { TargetRecord } from '@relay/store';
import { breakerSettingsOf, limitsOf } from '@relay/targets';
import type { AttemptResult, KindInfo } from '@relay/targets';
import type { BreakerRedis, BreakerView, HoldReason } from './breaker-redis';

/** What the gate let through: a plain send (with a lease to give back, or none), or the breaker's probe. */
export type Pass = { verdict: 'go'; lease: string | null } | { verdict: 'probe'; lease: string };
export type GateVerdict = Pass | { verdict: 'hold'; reason: HoldReason; waitMs: number };

/** How the handler asks before sending and tells after (handle.ts; an in-memory fake in unit tests). */
export interface TargetGate {
  /** may this delivery be sent now; no round trip for a target without limits whose breaker is closed as cached */
  admit(target: TargetRecord, kind: KindInfo): Promise<GateVerdict>;
  /** the attempt ended: its lease and outcome are reported in the next batch; a probe's end at once */
  settle(target: TargetRecord, pass: Pass, outcome: AttemptResult, sent: boolean): Promise<void>;
}

/** What follows a breaker state the gate saw (stored copy, caches told, metrics, the account's event). */
export interface BreakerSync {
  /** Redis holds `view` and the cached target showed another state; `won`: this process made the transition */
  changed(target: TargetRecord, view: BreakerView, won: boolean): Promise<void>;
  /** open longer than its flag-after: flag the target (once per episode; Redis picked this call) */
  flag(target: TargetRecord, view: BreakerView): Promise<void>;
}

/** The scripts the gate calls (breaker-redis.ts; an in-memory fake in unit tests). */
export type GateScripts = Pick<BreakerRedis, 'gate' | 'report' | 'probed'>;

export interface RedisGateOptions {
  breaker: GateScripts;
  sync: BreakerSync;
  logger: Logger;
  /** an in-flight lease expires after this long (a deliverer SIGKILLed mid-attempt holds its slot no longer) */
  leaseMs: number;
  /** reports are gathered this long, one script call per target per batch */
  flushMs: number;
}

interface Pending {
  target: TargetRecord;
  ok: number;
  failed: number;
  leases: string[];
}

/** Targets gathered per batch before it is sent at once, so memory stays bounded whatever the load. */
const MAX_PENDING_TARGETS = 10_000;
/** leases per target per batch; past that the batch is sent at once */
const MAX_PENDING_LEASES = 500;

/**
 * The gate in front of every attempt (docs/delivery-limits.md). A target without limits whose
 * cached breaker state is closed costs no round trip here: its outcomes are counted in memory
 * and reported once per batch per target. A target with limits, or a breaker the cache shows
 * as not closed, costs one script call before its attempt. When Redis cannot answer, deliveries
 * are sent (fail open: a limit is a courtesy to the receiver, a held delivery would only come
 * back to the same question) and the problem is logged.
 */
export class RedisTargetGate implements TargetGate {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | null = null;
  /** the last (target, seq) this process synced, so a state is written and announced once per process */
  private readonly synced = new LRUCache<string, number>({ max: 10_000 });
  private lastError = 0;

  constructor(private readonly opts: RedisGateOptions) {}

  async admit(target: TargetRecord, kind: KindInfo): Promise<GateVerdict> {
    const limits = limitsOf(target, kind);
    const cached = target.breaker_state?.state ?? 'closed';
    if (!limits && cached === 'closed') return { verdict: 'go', lease: null };
    const settings = breakerSettingsOf(target);
    try {
      const a = await this.opts.breaker.gate(target.id, limits, settings, this.opts.leaseMs);
      await this.follow(target, a.view, a.won);
      if (a.flag) await this.opts.sync.flag(target, a.view);
      if (a.verdict === 'hold') return { verdict: 'hold', reason: a.reason, waitMs: a.waitMs };
      // a lease is taken only when the target limits deliveries in flight
      return a.verdict === 'probe' ? { verdict: 'probe', lease: a.lease } : { verdict: 'go', lease: limits?.maxInFlight ? a.lease : null };
    } catch (err) {
      this.warn('target gate not asked; sending', target, err);
      return { verdict: 'go', lease: null };
    }
  }

  async settle(target: TargetRecord, pass: Pass, outcome: AttemptResult, sent: boolean): Promise<void> {
    if (pass.verdict === 'probe') {
      const answered = !sent ? null : outcome.result !== 'retry';
      try {
        const r = await this.opts.breaker.probed(target.id, pass.lease, answered, outcome.result === 'success' ? '' : outcome.error);
        await this.follow(target, r.view, r.won);
      } catch (err) {
        this.warn('probe outcome not reported; its lock expires', target, err);
      }
      return;
    }
    const ok = outcome.result === 'success' ? 1 : 0;
    const failed = sent && outcome.result === 'retry' ? 1 : 0;
    if (ok + failed === 0 && pass.lease === null) return;
    const p = this.pending.get(target.id) ?? { target, ok: 0, failed: 0, leases: [] };
    p.target = target;
    p.ok += ok;
    p.failed += failed;
    if (pass.lease !== null) p.leases.push(pass.lease);
    this.pending.set(target.id, p);
    if (this.pending.size >= MAX_PENDING_TARGETS || p.leases.length >= MAX_PENDING_LEASES) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.opts.flushMs).unref();
  }

  /** Sends the batch: one script call per target, in parallel (pipelined by the client). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    await Promise.all(
      batch.map(async (p) => {
        try {
          const r = await this.opts.breaker.report(p.target.id, p, p.leases, breakerSettingsOf(p.target));
          await this.follow(p.target, r.view, r.won);
        } catch (err) {
          this.warn('attempt outcomes not reported; their leases expire', p.target, err);
        }
      }),
    );
  }

  /** stops the batch timer after sending what is gathered (shutdown) */
  async close(): Promise<void> {
    await this.flush();
  }

  /** A state Redis holds that the cached target does not show (or a transition this call made) is synced once per process. */
  private async follow(target: TargetRecord, view: BreakerView, won: boolean): Promise<void> {
    const cached = target.breaker_state?.state ?? 'closed';
    if (!won && view.state === cached) return;
    if (!won && this.synced.get(target.id) === view.seq) return;
    this.synced.set(target.id, view.seq);
    try {
      await this.opts.sync.changed(target, view, won);
    } catch (err) {
      this.synced.delete(target.id);
      this.warn('breaker state not stored', target, err);
    }
  }

  /** at most one warning a second: a Redis outage must not flood the log */
  private warn(what: string, target: TargetRecord, err: unknown): void {
    const now = Date.now();
    if (now - this.lastError < 1000) return;
    this.lastError = now;
    this.opts.logger.warn(what, { target_id: target.id, error: (err as Error).message });
  }
}
