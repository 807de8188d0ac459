import { ACTIVITY_ATTEMPT_V1 } from '@relay/contracts';
import type { ActivityAttemptV1, CliLocalOutcome, DeliveryMessageV1 } from '@relay/contracts';
import { classifyCliOutcome } from './classify';
import type { CliNoAnswer } from './classify';

/**
 * One attempt of a delivery drained from a CLI session target's backlog (docs/cli.md "The
 * backlog"), made by the session itself: its row, as the deliverer would record it, and what
 * follows. The delivery stays at the head of the backlog until it is finished, so the ones behind
 * it keep their order: delivered; failed for good (a permanent answer, or the target's schedule
 * used up by retries during this drain); or tried again after the schedule's next delay.
 */
export function drainedAttempt(
  d: DeliveryMessageV1,
  tries: number,
  got: CliLocalOutcome | CliNoAnswer,
  schedule: readonly number[],
  attemptedAt: Date,
): { record: ActivityAttemptV1; retryInMs: number | null } {
  const outcome = classifyCliOutcome(got, attemptedAt.getTime());
  const delay = outcome.result === 'retry' ? schedule[tries] : undefined;
  const retryInMs =
    delay === undefined ? null : Math.max(delay, outcome.result === 'retry' ? (outcome.retryAfterMs ?? 0) : 0);
  const state = outcome.result === 'success' ? 'delivered' : retryInMs === null ? 'failed' : 'retrying';
  const { event_id, delivery_id, account_id, endpoint_id, target_id, target_kind } = d;
  return {
    record: {
      type: ACTIVITY_ATTEMPT_V1,
      ...{ event_id, delivery_id, account_id, endpoint_id, target_id, target_kind },
      attempt: d.attempt + tries,
      attempted_at: attemptedAt.toISOString(),
      state,
      status_code: outcome.status,
      duration_ms: typeof got === 'string' ? 0 : got.duration_ms,
      error: outcome.result === 'success' ? null : outcome.error.slice(0, 500),
      next_attempt_at: retryInMs === null ? null : new Date(attemptedAt.getTime() + retryInMs).toISOString(),
    },
    retryInMs,
  };
}
