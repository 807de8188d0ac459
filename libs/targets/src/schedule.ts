import type { DeliveryChannel } from '@relay/contracts';
import type { FieldError, Validation } from '@relay/contracts';
import { BLOCK_CHAT_RETRY_SCHEDULE_MS } from './kinds/block_chat';
import { EMBED_CHAT_RETRY_SCHEDULE_MS } from './kinds/embed_chat';

/*
 * A retry schedule is the list of delays between attempts: entry i is the wait before attempt
 * i + 2 (the first attempt is immediate). Its length is the number of retries, so a delivery
 * gets `schedule.length + 1` attempts before it is dead-lettered. docs/delivery.md.
 */

/**
 * The webhook schedule "immediate, 5 s, 30 s, 2 m, 10 m, 30 m, 1 h, 3 h, 6 h, 12 h":
 * the first attempt is the immediate one, then nine retries — ten attempts over about 22 h 43 m.
 */
export const WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000,
];

/** Per-kind defaults; a kind not listed uses its channel's (a new kind needs no entry). */
const BY_KIND: Readonly<Record<string, readonly number[]>> = {
  embed_chat: EMBED_CHAT_RETRY_SCHEDULE_MS,
  block_chat: BLOCK_CHAT_RETRY_SCHEDULE_MS,
};

const BY_CHANNEL: Readonly<Record<DeliveryChannel, readonly number[]>> = {
  webhook: WEBHOOK_RETRY_SCHEDULE_MS,
  chat: EMBED_CHAT_RETRY_SCHEDULE_MS,
};

export function defaultRetrySchedule(kind: string, channel: DeliveryChannel): readonly number[] {
  return BY_KIND[kind] ?? BY_CHANNEL[channel];
}

/** The schedule a target's deliveries follow: its own when set, else its kind's default. */
export function retryScheduleOf(target: { kind: string; retry_schedule_ms?: number[] | null }, channel: DeliveryChannel): readonly number[] {
  return target.retry_schedule_ms ?? defaultRetrySchedule(target.kind, channel);
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
