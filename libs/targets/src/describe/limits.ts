/*
 * A target's delivery limits and circuit-breaker settings as stored (TARGET_FIELDS.limits /
 * .breaker), their bounds and the breaker's defaults (docs/delivery-limits.md). What a delivery
 * follows is read from them by @relay/target-gate (limitsOf, breakerSettingsOf).
 */

/** Bounds of the settings: a rate log holds at most `maxRate` entries per target in Redis. */
export const TARGET_LIMITS = { maxRate: 10_000, maxInFlight: 1000 } as const;

/** As stored on a target (and as a kind declares its default). */
export interface TargetLimits {
  /** deliveries per `per`; null: no rate limit */
  rate: number | null;
  per: 'second' | 'minute';
  /** deliveries sent and not yet answered; null: no limit */
  max_in_flight: number | null;
}

export interface BreakerSettings {
  /** the breaker opens when at least this share of the window's attempts failed … */
  failure_rate_pct: number;
  /** … and the window holds at least this many attempts */
  min_attempts: number;
  window_s: number;
  /** open this long before one probe is let through */
  cool_down_s: number;
  /** open this long: the target is flagged as a 410 flags it */
  flag_after_open_s: number;
}

/**
 * Half of a minute's attempts failing, over at least 20: a receiver that is down trips it within
 * one window (about 20 attempts at a fraction of a second each), one that refuses a few bad
 * payloads does not. A probe every 30 s costs the receiver nothing; a day open flags the target,
 * well before the webhook schedule's 22.7 h would have dead-lettered its first delivery.
 */
export const BREAKER_DEFAULTS: Readonly<BreakerSettings> = {
  failure_rate_pct: 50,
  min_attempts: 20,
  window_s: 60,
  cool_down_s: 30,
  flag_after_open_s: 86_400,
};
