import { isCliBacklogQueue } from '@relay/contracts';

/*
 * AMQP headers the retry path reads and writes. The message body (relay.delivery.v1) stays
 * the contract; these carry broker-side facts about one copy of it.
 */

/** Set by quorum queues on a redelivered message: how often it was returned unacked. */
export const DELIVERY_COUNT_HEADER = 'x-delivery-count';
/** The attempt number the current retry schedule started at (a redrive restarts it). */
export const SCHEDULE_BASE_HEADER = 'x-relay-schedule-base';
/** On a held delivery: when its wait ends (epoch ms, by the clock of the deliverer that held it). */
export const HOLD_UNTIL_HEADER = 'x-relay-hold-until';
/** On dead-lettered deliveries: why, the last error and status, when. */
export const DEAD_REASON_HEADER = 'x-relay-dead-reason';
export const DEAD_ERROR_HEADER = 'x-relay-last-error';
export const DEAD_STATUS_HEADER = 'x-relay-last-status';
export const DEAD_AT_HEADER = 'x-relay-dead-at';
/** Set by the broker on a dead-lettered copy: why and from where it was first dead-lettered. */
export const FIRST_DEATH_REASON_HEADER = 'x-first-death-reason';
export const FIRST_DEATH_QUEUE_HEADER = 'x-first-death-queue';

function count(value: unknown): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string'
        ? Number(value)
        : typeof value === 'bigint'
          ? Number(value)
          : NaN;
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/**
 * The attempt a received copy represents. A copy the broker redelivers (the deliverer died or
 * its channel closed before the ack) was already attempted, maybe sent: it counts as a new
 * attempt, `attempt + x-delivery-count`, so X-Relay-Attempt grows and the crashed attempt
 * uses up its slot in the schedule. Retries are fresh messages, so their count starts at 0.
 */
export function deliveryPosition(
  messageAttempt: number,
  headers: Record<string, unknown> | undefined,
): { attempt: number; scheduleBase: number; holdUntil?: number; keptTooLong?: true } {
  const redeliveries = count(headers?.[DELIVERY_COUNT_HEADER]);
  const base = count(headers?.[SCHEDULE_BASE_HEADER]);
  const holdUntil = count(headers?.[HOLD_UNTIL_HEADER]);
  // a CLI session target's backlog entry that expired unreceived (docs/cli.md "The backlog")
  const keptTooLong =
    headers?.[FIRST_DEATH_REASON_HEADER] === 'expired' &&
    isCliBacklogQueue(String(headers?.[FIRST_DEATH_QUEUE_HEADER] ?? ''));
  return {
    attempt: messageAttempt + redeliveries,
    scheduleBase: base > 0 ? base : 1,
    ...(holdUntil > 0 ? { holdUntil } : {}),
    ...(keptTooLong ? { keptTooLong } : {}),
  };
}
