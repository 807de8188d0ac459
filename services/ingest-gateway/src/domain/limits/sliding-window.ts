/**
 * The per-endpoint rate limit (spec "Limits": requests per minute) as a sliding-window
 * counter: one counter per calendar minute, and the estimate of the last 60 s is
 * `previous × (share of the previous minute still inside the window) + current`. A fixed
 * window would let a sender put twice the limit into the two seconds around a minute
 * boundary; the weighted estimate does not, and still needs only two counters.
 *
 * A refused request is not counted, so a sender retrying too early does not push its own
 * Retry-After further out. The same inequality runs in the Redis script
 * (adapters/limiter-script.ts) and in the per-process fallback, in integers so both agree.
 */
export const RATE_WINDOW_MS = 60_000;

export interface RateWindow {
  /** minutes since the epoch; names the counter */
  minute: number;
  /** milliseconds into that minute */
  elapsedMs: number;
}

export function rateWindow(nowMs: number): RateWindow {
  const minute = Math.floor(nowMs / RATE_WINDOW_MS);
  return { minute, elapsedMs: nowMs - minute * RATE_WINDOW_MS };
}

/** prev × (W − elapsed)/W + curr + 1 ≤ limit, multiplied through by W. */
export function admitsOneMore(prev: number, curr: number, elapsedMs: number, limit: number): boolean {
  return prev * (RATE_WINDOW_MS - elapsedMs) + (curr + 1) * RATE_WINDOW_MS <= limit * RATE_WINDOW_MS;
}

/**
 * Whole seconds until one more request would be admitted if nothing else arrives
 * (spec "Ingest / retry response": Retry-After in whole seconds); at least 1.
 */
export function rateRetryAfterSeconds(prev: number, curr: number, elapsedMs: number, limit: number): number {
  const W = RATE_WINDOW_MS;
  const restOfMinute = W - elapsedMs;
  let waitMs: number;
  if (curr < limit) {
    // this minute still has room: wait until the previous minute's weight has shrunk so far
    // that prev × (W − elapsed − t) ≤ (limit − curr − 1) × W; at the latest, the minute's end
    waitMs = prev === 0 ? 0 : Math.max(0, restOfMinute - ((limit - curr - 1) * W) / prev);
  } else {
    // only the next minute helps: there `curr` is the previous count and must shrink to limit − 1
    waitMs = restOfMinute + W - ((limit - 1) * W) / curr;
  }
  return Math.max(1, Math.ceil(waitMs / 1000));
}
