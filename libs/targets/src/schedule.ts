import type { FieldError, Validation } from '@relay/contracts';
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

/**
 * Save-time check of a per-target schedule (management API). `null` means "the kind's
 * default"; `[]` means no retries. Delays need not match the deliverer's tiers: each is served
 * by the smallest tier at or above it (docs/delivery.md "Tiers and jitter").
 */
export function validateRetrySchedule(input: unknown, field = 'retry_schedule_ms'): Validation<number[] | null> {
  if (input === null || input === undefined) return { ok: true, value: null };
  if (!Array.isArray(input)) return { ok: false, errors: [{ field, message: 'must be an array of delays in milliseconds, or null for the default' }] };
  const errors: FieldError[] = [];
  if (input.length > RETRY_SCHEDULE_LIMITS.maxRetries) errors.push({ field, message: `at most ${RETRY_SCHEDULE_LIMITS.maxRetries} retries` });
  input.forEach((v, i) => {
    if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > RETRY_SCHEDULE_LIMITS.maxDelayMs) {
      errors.push({ field: `${field}[${i}]`, message: `must be an integer from 0 to ${RETRY_SCHEDULE_LIMITS.maxDelayMs}` });
    }
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: input as number[] };
}
