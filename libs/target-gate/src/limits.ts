import { BREAKER_DEFAULTS } from '@relay/targets';
import type { BreakerSettings, TargetLimits } from '@relay/targets';

/*
 * What a delivery follows, read from the target's stored settings (@relay/targets
 * describe/limits.ts): its own limits when set, else its kind's published platform limit
 * (KindInfo.defaultLimits); the breaker defaults overridden by what it sets.
 */

/** What the deliverer enforces: a window in ms and the two limits (null: none). */
export interface EffectiveLimits {
  rate: number | null;
  windowMs: number;
  maxInFlight: number | null;
}

/** The limits a target's deliveries follow: its own when set, else its kind's; null when there are none. */
export function limitsOf(
  target: { limits?: TargetLimits | null },
  kind: { defaultLimits?: TargetLimits },
): EffectiveLimits | null {
  const l = target.limits ?? kind.defaultLimits;
  if (!l || (l.rate === null && l.max_in_flight === null)) return null;
  return { rate: l.rate, windowMs: l.per === 'minute' ? 60_000 : 1000, maxInFlight: l.max_in_flight };
}

/** The breaker settings a target follows: the defaults, overridden by what it sets. */
export function breakerSettingsOf(target: { breaker?: Partial<BreakerSettings> | null }): BreakerSettings {
  return { ...BREAKER_DEFAULTS, ...(target.breaker ?? {}) };
}

/** One of those settings, read in place (no object built: for a check made once per delivery). */
export function breakerSettingOf<K extends keyof BreakerSettings>(
  target: { breaker?: Partial<BreakerSettings> | null },
  key: K,
): BreakerSettings[K] {
  return target.breaker?.[key] ?? BREAKER_DEFAULTS[key];
}
