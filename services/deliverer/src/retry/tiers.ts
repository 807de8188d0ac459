import type { DeliveryChannel } from '@relay/contracts';
import { CATALOG } from '@relay/targets';
import type { Catalog } from '@relay/targets';

/*
 * Delays live in RabbitMQ: one quorum queue per delay tier, with a queue-level TTL that
 * dead-letters back to the work queue (shared/reference/broker-and-limits.md: per-message TTLs
 * block behind each other on 3.10; libs/broker/src/topology.ts). Tiers are therefore a fixed
 * set the operator declares (RETRY_TIERS_MS); schedules and Retry-After hints are mapped onto
 * them here.
 */

/** Jitter steps of the default tier sets: each scheduled delay d also gets tiers at d × 1.1 and d × 1.2. */
const JITTER_STEPS = [1, 1.1, 1.2];

/**
 * Longest Retry-After hint each channel honours by default (RETRY_AFTER_MAX_MS), a tier of its
 * own: chat platforms ask for seconds, webhook receivers may ask for up to an hour, and Google
 * Sheets refills its per-minute quota after a minute (outputs: two, to be safe).
 */
export const DEFAULT_RETRY_AFTER_MAX_MS: Readonly<Record<DeliveryChannel, number>> = {
  webhook: 3_600_000,
  chat: 60_000,
  outputs: 120_000,
};

/**
 * Tiers a held delivery waits in (a per-target limit, an open breaker, a paused target;
 * docs/delivery-limits.md), part of every channel's default tiers. A held delivery carries
 * the time its wait ends and passes through these until then (holdTier), so the short end
 * sets how late it comes back: 100 ms, a tenth of a 10-a-second target's window. A broker wait
 * is at most a minute, so a paused target's deliveries ask again within one (sooner when the
 * pause is recent: libs/target-gate scripts.ts).
 */
export const HOLD_TIERS_MS: readonly number[] = [100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 30_000, 60_000];
/** the longest one broker wait of a held delivery */
export const HOLD_MAX_MS = 60_000;

/**
 * The tier a held delivery waits in next, `remainingMs` before its wait ends: the largest at or
 * below it (at most HOLD_MAX_MS), so it never comes back later than its time by more than the
 * smallest tier; the smallest tier when none is that short.
 */
export function holdTier(remainingMs: number, tiers: readonly number[]): number {
  const wait = Math.min(remainingMs, HOLD_MAX_MS);
  return tiers.filter((t) => t <= wait).pop() ?? tiers[0] ?? 0;
}

/** Tiers for `schedule` with jittered neighbours, sorted and unique. */
export function jitteredTiers(schedule: readonly number[], extra: readonly number[] = []): number[] {
  const tiers = schedule.filter((d) => d > 0).flatMap((d) => JITTER_STEPS.map((f) => Math.round(d * f)));
  return normalizeTiers([...tiers, ...extra]);
}

/**
 * The default RETRY_TIERS_MS of a channel's deliverer: the default schedules of every kind the
 * catalog puts on that channel, jittered, plus the channel's Retry-After cap and the hold tiers. Derived, so a kind
 * declaring a schedule of its own gets tiers for it without an edit here.
 */
export function defaultRetryTiers(channel: DeliveryChannel, catalog: Catalog = CATALOG): number[] {
  return jitteredTiers(catalog.schedulesOn(channel).flat(), [DEFAULT_RETRY_AFTER_MAX_MS[channel], ...HOLD_TIERS_MS]);
}

export function normalizeTiers(tiers: readonly number[]): number[] {
  return [...new Set(tiers)].sort((a, b) => a - b);
}

/** RETRY_TIERS_MS as read from the environment; returns the problems instead of throwing. */
export function parseTiers(raw: readonly string[]): { tiers: number[]; problems: string[] } {
  const problems: string[] = [];
  const tiers: number[] = [];
  for (const item of raw) {
    const n = Number(item);
    if (!/^\d+$/.test(item.trim()) || n < 1 || n > 2 ** 31 - 1)
      problems.push(`RETRY_TIERS_MS: "${item}" is not a delay in ms (1 … 2147483647)`);
    else tiers.push(n);
  }
  if (raw.length === 0) problems.push('RETRY_TIERS_MS: at least one tier is needed');
  return { tiers: normalizeTiers(tiers), problems };
}

/**
 * The tier a retry waits in. A delay of 0 needs no tier (the retry goes straight back to the
 * work queue). Otherwise jitter is applied in the tier choice: among the tiers within
 * [delay, delay × (1 + jitterPct/100)] one is chosen at random, which spreads a burst of
 * failures over several queues without ever retrying earlier than scheduled. With no tier
 * in that window, the smallest tier above the delay is used; a delay beyond every tier uses
 * the largest (the only case that waits less than asked; docs/delivery.md).
 */
export function pickTier(delayMs: number, tiers: readonly number[], jitterPct: number, random: () => number): number {
  if (delayMs <= 0 || tiers.length === 0) return 0;
  const upper = delayMs * (1 + jitterPct / 100);
  const window = tiers.filter((t) => t >= delayMs && t <= upper);
  if (window.length > 0) return window[Math.min(window.length - 1, Math.floor(random() * window.length))]!;
  return tiers.find((t) => t >= delayMs) ?? tiers[tiers.length - 1]!;
}
