import { BrokerUnavailableError, createActivityPublisher } from '@relay/broker';
import type { ConfirmPublisher } from '@relay/broker';
import { brokerNames, encodeMessage } from '@relay/contracts';
import { DeliveryQueueUnavailableError } from '../domain/ports';
import type { EventPublisher } from '../domain/ports';

/** Broker failures become the domain's DeliveryQueueUnavailableError; anything else is a bug and stays as thrown. */
function translated(err: unknown): never {
  throw err instanceof BrokerUnavailableError ? new DeliveryQueueUnavailableError(err) : err;
}

export interface GatewayPublisher extends EventPublisher {
  /**
   * Waits (at most `ms`) until every publish has its confirm. On shutdown, before the broker
   * connection closes: the ACCEPTED rows published after a 202 are not awaited by the request,
   * and closing under them would drop them instead of confirming or spooling them.
   */
  settle(ms: number): Promise<void>;
}

export function createEventPublisher(publisher: ConfirmPublisher, namespace: string): GatewayPublisher {
  const names = brokerNames(namespace);
  const activity = createActivityPublisher(publisher, namespace);
  return {
    async publishDeliveries(deliveries) {
      await Promise.all(
        deliveries.map(({ message, channel }) =>
          publisher.publish(names.deliveriesExchange, channel, encodeMessage(message), {
            messageId: `${message.delivery_id}.${message.attempt}`,
            type: message.type,
          }),
        ),
      ).catch(translated);
    },
    async publishActivity(row) {
      await activity.publish(row).catch(translated);
    },
    async settle(ms) {
      activity.flush();
      const deadline = Date.now() + ms;
      while ((publisher.inFlight > 0 || activity.pending > 0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    },
  };
}
