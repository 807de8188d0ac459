import { BrokerUnavailableError } from '@relay/broker';
import type { ConfirmPublisher } from '@relay/broker';
import { brokerNames, encodeMessage } from '@relay/contracts';
import type { DeliveryChannel, DeliveryMessageV1 } from '@relay/contracts';

/** The broker did not confirm a delivery (not connected, nack, unroutable, no confirm in time). */
export class DeliveriesUnavailableError extends Error {
  constructor(cause: unknown) {
    super('delivery queue unavailable', { cause });
    this.name = 'DeliveriesUnavailableError';
  }
}

export interface DeliveryPublisher {
  /** resolves once the broker confirmed every delivery; rejects with DeliveriesUnavailableError */
  publish(deliveries: { message: DeliveryMessageV1; channel: DeliveryChannel }[]): Promise<void>;
}

/**
 * Resends and bulk retries publish delivery messages the way the gateway does — persistent,
 * mandatory, each awaited on its own confirm — to the same work queues, so the deliverers
 * cannot tell them from first deliveries but by their delivery id.
 */
export function createDeliveryPublisher(publisher: ConfirmPublisher, namespace: string): DeliveryPublisher {
  const names = brokerNames(namespace);
  return {
    async publish(deliveries) {
      await Promise.all(
        deliveries.map(({ message, channel }) =>
          publisher.publish(names.deliveriesExchange, channel, encodeMessage(message), { messageId: `${message.delivery_id}.${message.attempt}`, type: message.type }),
        ),
      ).catch((err: unknown) => {
        throw err instanceof BrokerUnavailableError ? new DeliveriesUnavailableError(err) : err;
      });
    },
  };
}
