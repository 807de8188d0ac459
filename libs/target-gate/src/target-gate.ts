import { LRUCache } from '@relay/cache';
import type { Logger } from '@relay/logging';
import type { TargetRecord } from '@relay/store';
import type { AttemptResult, BreakerSettings, KindInfo } from '@relay/targets';
import { batchSizes, TargetAllowances } from './allowance';
import type { BatchRequest, BreakerRedis, BreakerView, GateAnswer } from './breaker-redis';
import { breakerSettingOf, breakerSettingsOf, limitsOf } from './limits';
import type { EffectiveLimits } from './limits';
import type { GateVerdict, Pass } from './verdict';

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
export type GateScripts = Pick<BreakerRedis, 'gate' | 'report' | 'probed' | 'giveBack'>;

export interface RedisGateOptions {
  breaker: GateScripts;
  sync: BreakerSync;
  logger: Logger;
  /** an in-flight lease expires after this long (a deliverer SIGKILLed mid-attempt holds its slot no longer) */
  leaseMs: number;
  /** reports are gathered this long, one script call per target per batch */
  flushMs: number;
  /**
   * Successes alone (no failure, no lease) of a target whose breaker is closed as cached are
   * gathered this long instead, when it is at most a tenth of the target's bucket (`window_s / 6`);
   * a failure or a lease of that target takes them along in the next `flushMs` batch.
   */
  quietFlushMs: number;
}

interface Pending {
  target: TargetRecord;
  ok: number;
  failed: number;
  leases: string[];
}

/** Outcomes gathered per target, sent together when the timer fires */
interface Batch {
  gathered: Map<string, Pending>;
  timer: NodeJS.Timeout | null;
  everyMs: number;
}

/** Targets gathered per batch before it is sent at once, so memory stays bounded whatever the load. */
const MAX_PENDING_TARGETS = 10_000;
/** leases per target per batch; past that the batch is sent at once */
const MAX_PENDING_LEASES = 500;
/** successes are held at most this share of the breaker's bucket: a tenth */
const QUIET_SHARE_OF_BUCKET = 10;

/**
 * The gate in front of every attempt (docs/delivery-limits.md). A target without limits whose
 * cached breaker state is closed costs no round trip here: its outcomes are counted in memory
 * and reported once per batch per target — every `flushMs` when the batch holds a failure or a
 * lease, every `quietFlushMs` when it holds only successes (so a target that gets one delivery
 * per `flushMs` is not one script call per delivery). A target with limits, or a breaker the cache shows
 * as not closed, costs one script call before its attempt. When Redis cannot answer, deliveries
 * are sent (fail open: a limit is a courtesy to the receiver, a held delivery would only come
 * back to the same question) and the problem is logged.
 */
export class RedisTargetGate implements TargetGate {
  /** targets with a failure or a lease to report: sent every `flushMs` */
  private readonly pending: Batch;
  /** targets with only successes to report: sent every `quietFlushMs` */
  private readonly quiet: Batch;
  /** the last (target, seq) this process synced, so a state is written and announced once per process */
  private readonly synced = new LRUCache<string, number>({ max: 10_000 });
  private lastError = 0;
  /** limited targets' tokens and slots taken a batch at a time (allowance.ts) */
  private readonly allowances: TargetAllowances;

  constructor(private readonly opts: RedisGateOptions) {
    this.pending = { gathered: new Map(), timer: null, everyMs: opts.flushMs };
    this.quiet = { gathered: new Map(), timer: null, everyMs: opts.quietFlushMs };
    this.allowances = new TargetAllowances({
      ask: (target, limits, batch) => this.ask(target, limits, batch),
      giveBack: (targetId, tokens, slots) => opts.breaker.giveBack(targetId, tokens, slots),
      warn: (what, targetId, err) => this.warn(what, targetId, err),
      slotValidMs: opts.leaseMs / 6,
    });
  }

  async admit(target: TargetRecord, kind: KindInfo): Promise<GateVerdict> {
    const limits = limitsOf(target, kind);
    const cached = target.breaker_state?.state ?? 'closed';
    if (!limits && cached === 'closed') return { verdict: 'go', lease: null };
    // a limit large enough to batch, breaker closed as cached: spent from this process's share
    const sizes = limits && cached === 'closed' ? batchSizes(limits) : null;
    if (limits && sizes) {
      const shared = await this.allowances.admit(target, limits, sizes);
      if (shared) return shared;
    }
    const settings = breakerSettingsOf(target);
    try {
      const a = await this.ask(target, limits, undefined, settings);
      if (a.verdict === 'hold') return { verdict: 'hold', reason: a.reason, waitMs: a.waitMs };
      // a lease is taken only when the target limits deliveries in flight
      return a.verdict === 'probe'
        ? { verdict: 'probe', lease: a.lease }
        : { verdict: 'go', lease: limits?.maxInFlight ? a.lease : null };
    } catch (err) {
      this.warn('target gate not asked; sending', target.id, err);
      return { verdict: 'go', lease: null };
    }
  }

  /** One GATE call (a single delivery's, or a batch's), its breaker state followed and a flag acted on. */
  private async ask(
    target: TargetRecord,
    limits: EffectiveLimits | null,
    batch?: BatchRequest,
    settings: BreakerSettings = breakerSettingsOf(target),
  ): Promise<GateAnswer> {
    const a = await this.opts.breaker.gate(target.id, limits, settings, this.opts.leaseMs, batch);
    await this.follow(target, a.view, a.won);
    if (a.flag) await this.opts.sync.flag(target, a.view);
    return a;
  }

  async settle(target: TargetRecord, pass: Pass, outcome: AttemptResult, sent: boolean): Promise<void> {
    if (pass.verdict === 'probe') {
      const answered = !sent ? null : outcome.result !== 'retry';
      try {
        const r = await this.opts.breaker.probed(
          target.id,
          pass.lease,
          answered,
          outcome.result === 'success' ? '' : outcome.error,
        );
        await this.follow(target, r.view, r.won);
      } catch (err) {
        this.warn('probe outcome not reported; its lock expires', target.id, err);
      }
      return;
    }
    // a slot of this process's share carries its next delivery instead of going back to Redis
    if (pass.lease !== null && this.allowances.release(target.id, pass.lease)) pass = { verdict: 'go', lease: null };
    const ok = outcome.result === 'success' ? 1 : 0;
    const failed = sent && outcome.result === 'retry' ? 1 : 0;
    if (ok + failed === 0 && pass.lease === null) return;
    let p = this.pending.gathered.get(target.id);
    if (!p && failed === 0 && pass.lease === null && this.mayWait(target)) {
      p = this.quiet.gathered.get(target.id) ?? { target, ok: 0, failed: 0, leases: [] };
      this.quiet.gathered.set(target.id, p);
      this.schedule(this.quiet);
    } else if (!p) {
      // the successes gathered so far go with this failure or lease: the window sees them together
      p = this.quiet.gathered.get(target.id) ?? { target, ok: 0, failed: 0, leases: [] };
      this.quiet.gathered.delete(target.id);
      this.pending.gathered.set(target.id, p);
    }
    p.target = target;
    p.ok += ok;
    p.failed += failed;
    if (pass.lease !== null) p.leases.push(pass.lease);
    if (
      this.pending.gathered.size + this.quiet.gathered.size >= MAX_PENDING_TARGETS ||
      p.leases.length >= MAX_PENDING_LEASES
    )
      void this.flush();
    else if (this.pending.gathered.size > 0) this.schedule(this.pending);
  }

  /** Sends everything gathered (shutdown; a full batch). */
  async flush(): Promise<void> {
    await Promise.all([this.send(this.pending), this.send(this.quiet)]);
  }

  /** May this target's successes wait `quietFlushMs`: its breaker is closed as cached and the wait is a tenth of its bucket at most. */
  private mayWait(target: TargetRecord): boolean {
    if ((target.breaker_state?.state ?? 'closed') !== 'closed') return false;
    return this.opts.quietFlushMs * QUIET_SHARE_OF_BUCKET * 6 <= breakerSettingOf(target, 'window_s') * 1000;
  }

  private schedule(b: Batch): void {
    b.timer ??= setTimeout(() => void this.send(b), b.everyMs).unref();
  }

  /** Sends one of the two batches: one script call per target, in parallel (pipelined by the client). */
  private async send(b: Batch): Promise<void> {
    if (b.timer) clearTimeout(b.timer);
    b.timer = null;
    const batch = [...b.gathered.values()];
    b.gathered = new Map();
    await Promise.all(
      batch.map(async (p) => {
        try {
          const r = await this.opts.breaker.report(p.target.id, p, p.leases, breakerSettingsOf(p.target));
          await this.follow(p.target, r.view, r.won);
        } catch (err) {
          this.warn('attempt outcomes not reported; their leases expire', p.target.id, err);
        }
      }),
    );
  }

  /** stops the batch timer after sending what is gathered, and gives back every share's unspent part (shutdown) */
  async close(): Promise<void> {
    await this.allowances.sweep(true);
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
      this.warn('breaker state not stored', target.id, err);
    }
  }

  /** at most one warning a second: a Redis outage must not flood the log */
  private warn(what: string, targetId: string, err: unknown): void {
    const now = Date.now();
    if (now - this.lastError < 1000) return;
    this.lastError = now;
    this.opts.logger.warn(what, { target_id: targetId, error: (err as Error).message });
  }
}
