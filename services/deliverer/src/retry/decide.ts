import type { AttemptResult } from '@relay/targets';
import { pickTier } from './tiers';

/** The deliverer-wide retry settings (RETRY_TIERS_MS, RETRY_JITTER_PCT, RETRY_AFTER_MAX_MS). */
export interface RetryPolicy {
  tiersMs: readonly number[];
  jitterPct: number;
  retryAfterMaxMs: number;
}

/** What happens to a delivery after one attempt. */
export type RetryDecision =
  | { state: 'delivered' }
  /** `tierMs` 0: straight back to the work queue */
  | { state: 'retrying'; delayMs: number; tierMs: number; nextAttemptAt: Date }
  | { state: 'failed'; reason: 'permanent' | 'exhausted' }
  /** the kind keeps the delivery until its destination can take it: recorded as retrying, nothing published */
  | { state: 'kept' };

export interface AttemptPosition {
  /** the attempt just made (X-Relay-Attempt) */
  attempt: number;
  /** the attempt number the current schedule started at: 1, or the first attempt after a redrive */
  scheduleBase: number;
  /** no attempt after this time (epoch ms): an ordered delivery's bound (docs/ordering.md) */
  deadline?: number;
}

/**
 * Success is final; a permanent result fails at once; a retryable one waits the schedule's
 * next delay — or the destination's own hint (Retry-After, `retry_after`) when that is longer,
 * capped at `retryAfterMaxMs` — unless the schedule is used up. The wait is then rounded up
 * to a tier (see pickTier), so `nextAttemptAt` is the time the broker hands it back.
 */
export function decideRetry(
  outcome: AttemptResult,
  pos: AttemptPosition,
  schedule: readonly number[],
  policy: RetryPolicy,
  now: Date,
  random: () => number,
): RetryDecision {
  if (outcome.result === 'success') return { state: 'delivered' };
  if (outcome.result === 'permanent') return { state: 'failed', reason: 'permanent' };
  if (outcome.result === 'kept') return { state: 'kept' };
  const index = Math.max(0, pos.attempt - pos.scheduleBase);
  const scheduled = schedule[index];
  if (scheduled === undefined) return { state: 'failed', reason: 'exhausted' };
  const hint = Math.min(Math.max(0, outcome.retryAfterMs ?? 0), policy.retryAfterMaxMs);
  const delayMs = Math.max(scheduled, hint);
  const tierMs = pickTier(delayMs, policy.tiersMs, policy.jitterPct, random);
  if (pos.deadline !== undefined && now.getTime() + tierMs > pos.deadline)
    return { state: 'failed', reason: 'exhausted' };
  return { state: 'retrying', delayMs, tierMs, nextAttemptAt: new Date(now.getTime() + tierMs) };
}
