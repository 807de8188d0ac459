import { brokerNames, encodeMessage } from '@relay/contracts';
import type { ActivityRequestV1, DeliveryChannel, DeliveryMessageV1 } from '@relay/contracts';
import type { ConfirmPublisher } from '@relay/broker';

export interface EventPublisher {
  /** resolves when the broker confirmed every delivery; rejects with BrokerUnavailableError */
  publishDeliveries(deliveries: { message: DeliveryMessageV1; channel: DeliveryChannel }[]): Promise<void>;
  publishActivity(row: ActivityRequestV1): Promise<void>;
}

export function createEventPublisher(publisher: ConfirmPublisher, namespace: string): EventPublisher {
  const names = brokerNames(namespace);
  return {
    async publishDeliveries(deliveries) {
      await Promise.all(
        deliveries.map(({ message, channel }) =>
          publisher.publish(names.deliveriesExchange, channel, encodeMessage(message), {
            messageId: `${message.delivery_id}.${message.attempt}`,
            type: message.type,
          }),
        ),
      );
    },
    publishActivity(row) {
      return publisher.publish(names.activityExchange, names.activityRoutingKey, encodeMessage(row), {
        messageId: `${row.event_id}.request`,
        type: row.type,
      });
    },
  };
}
