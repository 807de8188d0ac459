import { quotaKey, quotaMonth } from '@relay/contracts';
import type { AccountEvent } from '@relay/contracts';
import type { RedisClient } from '@relay/cache';
import type { Logger } from '@relay/logging';
import { accountPlan } from '@relay/store';
import type { Store } from '@relay/store';
import { endpointSubject, readWindow, targetSubject } from './counters';
import { ANY_REJECTION, CONDITIONS } from './describe';
import type { AlertCondition, AlertRule } from './rules';

/**
 * The rules that watch counters (failure rate, rejection spike, quota), kept in one Redis hash
 * `${ns}:alert-watch` (rule id → the rule as JSON) written when a rule is saved or deleted, so
 * the detector reads no store to know what to watch.
 */
const watchKey = (namespace: string): string => `${namespace}:alert-watch`;

const watchesCounters = (rule: AlertRule): boolean =>
  rule.enabled && rule.conditions.some((c) => CONDITIONS[c.kind].source === 'counters');

export async function updateWatch(redis: RedisClient, namespace: string, rule: AlertRule): Promise<void> {
  if (watchesCounters(rule)) await redis.hset(watchKey(namespace), rule.id, JSON.stringify(rule));
  else await redis.hdel(watchKey(namespace), rule.id);
}

export async function dropWatch(redis: RedisClient, namespace: string, ruleId: string): Promise<void> {
  await redis.hdel(watchKey(namespace), ruleId);
}

const reviveRule = (json: string): AlertRule => {
  const r = JSON.parse(json) as AlertRule & { created_at: string; updated_at: string };
  return { ...r, created_at: new Date(r.created_at), updated_at: new Date(r.updated_at) };
};

const NOT_REJECTIONS = new Set(['ACCEPTED', 'HANDSHAKE_ANSWERED', 'DUPLICATE']);

interface DetectorDeps {
  redis: RedisClient;
  store: Store;
  namespace: string;
  logger: Logger;
  /** sends the alert once per episode (AlertEvaluator.fire) */
  fire(rule: AlertRule, condition: AlertCondition, event: AccountEvent): Promise<unknown>;
  now?: () => Date;
}

/**
 * Checks the counter conditions of every watched rule: each rule's window is a few Redis reads
 * (one HGETALL per minute of the window), the quota one GET and one account read by `_id`. The
 * cost of a pass grows with the number of watched rules, never with traffic or stored rows.
 * A pass reads at most `rulesPerPass` rules (HSCAN), continuing where the last one stopped.
 */
export class CounterDetector {
  private cursor = '0';
  private readonly now: () => Date;

  constructor(
    private readonly deps: DetectorDeps,
    private readonly rulesPerPass = 200,
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  async pass(): Promise<number> {
    const { redis, namespace } = this.deps;
    const [next, flat] = await redis.hscan(watchKey(namespace), this.cursor, 'COUNT', this.rulesPerPass);
    this.cursor = next;
    let fired = 0;
    for (let i = 1; i < flat.length; i += 2) {
      try {
        const rule = reviveRule(flat[i]!);
        for (const c of rule.conditions) {
          const event = await this.check(rule, c);
          if (event && (await this.deps.fire(rule, c, event))) fired++;
        }
      } catch (err) {
        this.deps.logger.warn('alert rule not checked', { rule_id: flat[i - 1], error: (err as Error).message });
      }
    }
    return fired;
  }

  /** The event a counter condition describes right now, or null while it does not hold. */
  async check(rule: AlertRule, c: AlertCondition): Promise<AccountEvent | null> {
    const { redis, namespace } = this.deps;
    const now = this.now();
    const at = now.toISOString();
    const base = { type: 'relay.account-event.v1' as const, account_id: rule.account_id, at };
    if (c.kind === 'failure_rate' && c.target_id) {
      const w = await readWindow(redis, namespace, targetSubject(c.target_id), c.window_minutes!, now.getTime());
      const attempts = (w.ok ?? 0) + (w.fail ?? 0);
      const failed = w.fail ?? 0;
      if (attempts < c.min_attempts! || failed * 100 < c.threshold_percent! * attempts) return null;
      return {
        ...base,
        kind: 'failure_rate',
        target_id: c.target_id,
        detail: {
          attempts,
          failed,
          failure_percent: (failed * 100) / attempts,
          threshold_percent: c.threshold_percent!,
          window_minutes: c.window_minutes!,
        },
      };
    }
    if (c.kind === 'rejection_spike' && c.endpoint_id) {
      const w = await readWindow(redis, namespace, endpointSubject(c.endpoint_id), c.window_minutes!, now.getTime());
      const requests = Object.values(w).reduce((a, b) => a + b, 0);
      const rejected =
        c.outcome === ANY_REJECTION
          ? Object.entries(w)
              .filter(([o]) => !NOT_REJECTIONS.has(o))
              .reduce((a, [, n]) => a + n, 0)
          : (w[c.outcome!] ?? 0);
      if (requests < c.min_requests! || rejected * 100 < c.threshold_percent! * requests) return null;
      return {
        ...base,
        kind: 'rejection_spike',
        endpoint_id: c.endpoint_id,
        detail: {
          requests,
          rejected,
          rejected_percent: (rejected * 100) / requests,
          outcome: c.outcome!,
          threshold_percent: c.threshold_percent!,
          window_minutes: c.window_minutes!,
        },
      };
    }
    if (c.kind === 'quota_nearly_used') {
      const [raw, plan] = await Promise.all([
        redis.get(quotaKey(namespace, rule.account_id, quotaMonth(now))),
        accountPlan(this.deps.store, rule.account_id),
      ]);
      const used = Number(raw ?? 0);
      const limit = plan?.monthly_accepted_events ?? 0;
      if (limit <= 0 || used * 100 < c.threshold_percent! * limit) return null;
      return {
        ...base,
        kind: 'quota_nearly_used',
        detail: {
          used,
          limit,
          used_percent: (used * 100) / limit,
          threshold_percent: c.threshold_percent!,
          month: quotaMonth(now),
        },
      };
    }
    return null;
  }
}

/**
 * Runs a detector pass every `intervalMs` on one instance at a time: a Redis lease
 * (`${ns}:alert-detect-lease`, SET NX PX) taken for the interval. Another instance's pass would
 * be harmless (episodes are deduplicated in Redis) but wasted work.
 */
export function runDetector(
  detector: CounterDetector,
  redis: RedisClient,
  namespace: string,
  intervalMs: number,
  logger: Logger,
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const tick = (): void => {
    running = (async () => {
      const lease = await redis.set(
        `${namespace}:alert-detect-lease`,
        String(process.pid),
        'PX',
        Math.max(1000, intervalMs - 100),
        'NX',
      );
      if (lease === 'OK') await detector.pass();
    })().catch((err: Error) => logger.warn('alert detector pass failed', { error: err.message }));
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
