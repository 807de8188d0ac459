import { ACTIVITY_ATTEMPT_V1, ACTIVITY_BATCH_V1, ACTIVITY_REQUEST_V1, decodeMessage } from '@relay/contracts';
import type { ActivityMessage } from '@relay/contracts';

/** The activity records one message of the activity queue carries: a batch's records, or the single record. */
export function activityRecordsOf(body: Buffer): ActivityMessage[] {
  const message = decodeMessage(body, [ACTIVITY_REQUEST_V1, ACTIVITY_ATTEMPT_V1, ACTIVITY_BATCH_V1]);
  return message.type === ACTIVITY_BATCH_V1 ? message.records : [message];
}
