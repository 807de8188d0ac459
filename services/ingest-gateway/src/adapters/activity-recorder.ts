import type { ActivityRecorder, EventPublisher } from '../domain/ports';
import type { ActivitySpool } from './activity-spool';

/**
 * Rows of answered requests go to the broker with a confirm; when the broker cannot take one
 * (the DELIVERY_QUEUE_UNAVAILABLE row above all) it is spooled in Redis and drained later.
 * The answer to the sender never waits for either.
 */
export function createActivityRecorder(events: EventPublisher, spool: ActivitySpool): ActivityRecorder {
  return {
    record(row) {
      events.publishActivity(row).catch(() => spool.push(row));
    },
  };
}
