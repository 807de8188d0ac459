/**
 * The per-endpoint rate limit (spec "Limits": requests per minute) as GCRA, the generic cell
 * rate algorithm, in its continuous-state leaky-bucket form (ITU-T I.371): a bucket of capacity
 * N requests that drains at N per minute. Exact, with no estimate:
 *
 * - a limit of N admits any N requests at once, and every sequence with at most N requests in
 *   any 60 s (so a request 60 s after the only other one is always admitted);
 * - a refused sender never waits more than 60 s / N ≤ 60 s, and Retry-After is that wait,
 *   rounded up to whole seconds;
 * - over any period the admitted rate is N per minute; a full burst of N can be followed by one
 *   request every 60/N s, so a 60 s window holds at most 2N − 1.
 *
 * A refused request is not counted, so retrying early does not push the sender's own
 * Retry-After out. The same integer arithmetic runs in the Redis script
 * (adapters/limiter/scripts.ts) and in the per-process fallback, so both decide alike.
 *
 * Units: one request adds RATE_WINDOW_MS to the level; the bucket drains `limit` per ms; it is
 * full at `limit × RATE_WINDOW_MS`. Every value stays an integer below 2^53.
 */
export const RATE_WINDOW_MS = 60_000;

export interface RateState {
  /** fill level, in request-milliseconds (one request = RATE_WINDOW_MS) */
  level: number;
  /** the time `level` was computed at */
  atMs: number;
}

export type RateDecision = { admitted: true; state: RateState } | { admitted: false; waitMs: number };

export function gcraAdmit(state: RateState | null, nowMs: number, limit: number): RateDecision {
  const atMs = state ? Math.max(state.atMs, nowMs) : nowMs;
  // a clock behind the last decision (another gateway's) drains nothing; it never overfills
  const drained = state ? Math.max(0, nowMs - state.atMs) * limit : 0;
  const level = Math.max(0, (state?.level ?? 0) - drained);
  const excess = level + RATE_WINDOW_MS - limit * RATE_WINDOW_MS;
  if (excess <= 0) return { admitted: true, state: { level: level + RATE_WINDOW_MS, atMs } };
  return { admitted: false, waitMs: Math.ceil(excess / limit) };
}

/** Retry-After of a refused request: the real wait in whole seconds, rounded up (spec "Ingest / retry response"). */
export function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}
