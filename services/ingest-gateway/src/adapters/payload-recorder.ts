import type { PayloadPublisher } from '@relay/broker';
import type { Logger } from '@relay/logging';
import type { PayloadRecorder } from '../domain/ports';

/**
 * Accepted payloads go to the payload queue with a confirm, gathered with others (up to about
 * 1 MiB a message). Unlike a row, a payload the broker refuses is not spooled in Redis: the
 * broker confirmed this event's deliveries a moment before, so a refusal is rare, and spooling
 * megabytes of bodies would put Redis's memory at a sender's mercy. It is logged and counted;
 * that event cannot be resent (409 payload_not_stored).
 */
export function createPayloadRecorder(
  publisher: PayloadPublisher,
  logger: Logger,
  onLost: () => void,
): PayloadRecorder {
  return {
    record(payload) {
      publisher.publish(payload).catch((err: unknown) => {
        onLost();
        logger.warn('payload not stored for resends: the broker did not take it', {
          event_id: payload.event_id,
          endpoint_id: payload.endpoint_id,
          error: (err as Error).message,
        });
      });
    },
  };
}
