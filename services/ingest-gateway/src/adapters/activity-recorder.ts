import type { Logger } from '@relay/logging';
import { DeliveryQueueUnavailableError } from '@relay/broker';
import type { ActivityRecorder, EventPublisher } from '../domain/ports';
import type { ActivitySpool } from './activity-spool';

/**
 * Rows of answered requests go to the broker with a confirm; when the broker cannot take one
 * (the DELIVERY_QUEUE_UNAVAILABLE row above all) it is spooled in Redis and drained later.
 * A row refused for any other reason (the message contract) could never be published: it is
 * logged, not spooled, where it would only be quarantined later. The answer to the sender
 * never waits for either.
 */
export function createActivityRecorder(events: EventPublisher, spool: ActivitySpool, logger: Logger): ActivityRecorder {
  return {
    record(row) {
      events.publishActivity(row).catch((err: unknown) => {
        if (err instanceof DeliveryQueueUnavailableError) return spool.push(row);
        logger.error('activity row refused by its contract; not recorded', {
          event_id: row.event_id,
          outcome: row.outcome,
          error: (err as Error).message,
        });
        return false;
      });
    },
  };
}
