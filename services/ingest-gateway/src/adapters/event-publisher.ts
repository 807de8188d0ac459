import {
  ACTIVITY_LINGER_MS,
  createActivityPublisher,
  DeliveryPublisher,
  DeliveryQueueUnavailableError,
} from '@relay/broker';
import { MAX_ACTIVITY_BATCH } from '@relay/contracts';
import type { ConfirmPublisher } from '@relay/broker';
import { traceHeaders } from '@relay/telemetry';
import type { EventPublisher } from '../domain/ports';

export interface GatewayPublisher extends EventPublisher {
  /**
   * Waits (at most `ms`) until every publish has its confirm. On shutdown, before the broker
   * connection closes: the ACCEPTED rows published after a 202 are not awaited by the request,
   * and closing under them would drop them instead of confirming or spooling them.
   */
  settle(ms: number): Promise<void>;
}

export function createEventPublisher(publisher: ConfirmPublisher, namespace: string): GatewayPublisher {
  const deliveries = new DeliveryPublisher(publisher, namespace);
  // the 202 does not wait for the row's confirm: its batch may wait longer when rows spread over
  // partitions (docs/reliability.md "A gateway killed")
  const activity = createActivityPublisher(publisher, namespace, {
    maxItems: MAX_ACTIVITY_BATCH,
    lingerMs: ACTIVITY_LINGER_MS,
    spreadLinger: true,
  });
  return {
    // the event's trace travels in the messages' headers (W3C traceparent; nothing when tracing is off)
    publishDeliveries: (d) => deliveries.publish(d, traceHeaders()),
    async publishActivity(row) {
      // a row the broker cannot take is the same outage as a delivery it cannot take: spooled
      await activity.publish(row).catch((err: unknown) => {
        throw DeliveryQueueUnavailableError.from(err);
      });
    },
    async settle(ms) {
      activity.flush();
      const deadline = Date.now() + ms;
      while ((publisher.inFlight > 0 || activity.pending > 0) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10));
    },
  };
}
