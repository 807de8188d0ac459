import { ACTIVITY_ATTEMPT_V1 } from '@relay/contracts';
import type { ActivityAttemptV1, DeliveryMessageV1 } from '@relay/contracts';

/**
 * The activity record of an attempt that sent nothing (a transformation ended it, a backlog or a
 * hold outlived its bound, a stuck head not yet attempted): no status, no time on the wire, no
 * next attempt unless `fields` says one.
 */
export function unsentAttempt(
  d: DeliveryMessageV1,
  fields: Pick<ActivityAttemptV1, 'attempted_at' | 'state' | 'error'> & Partial<ActivityAttemptV1>,
): ActivityAttemptV1 {
  const { event_id, delivery_id, account_id, endpoint_id, target_id, target_kind, attempt } = d;
  return {
    ...{ event_id, delivery_id, account_id, endpoint_id, target_id, target_kind, attempt },
    type: ACTIVITY_ATTEMPT_V1,
    status_code: null,
    duration_ms: 0,
    next_attempt_at: null,
    ...fields,
  };
}
