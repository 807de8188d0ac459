/**
 * Delays between attempts, in ms, of the queue and stream kinds: a broker's or server's restart or
 * failover is back within seconds, an outage within the hour. Every delay is already a tier of the
 * outputs channel (the email and CLI schedules), so these kinds add no retry queue.
 */
export const QUEUE_RETRY_SCHEDULE_MS: readonly number[] = [5_000, 30_000, 60_000, 300_000, 900_000, 3_600_000];
