import type { KindInfo } from './kind';

/*
 * A retry schedule is the list of delays between attempts: entry i is the wait before attempt
 * i + 2 (the first attempt is immediate). Its length is the number of retries, so a delivery
 * gets `schedule.length + 1` attempts before it is dead-lettered. Each kind declares its default
 * (`KindInfo.defaultRetryScheduleMs`); a target may set its own. docs/delivery.md.
 */

/** The schedule a target's deliveries follow: its own when set, else the one its kind declares. */
export function retryScheduleOf(target: { retry_schedule_ms?: number[] | null }, kind: KindInfo): readonly number[] {
  return target.retry_schedule_ms ?? kind.defaultRetryScheduleMs;
}

/** At most 20 retries (21 attempts) and at most 24 h between two attempts. */
export const RETRY_SCHEDULE_LIMITS = { maxRetries: 20, maxDelayMs: 86_400_000 } as const;
