import { brokerNames, encodeMessage, orderedPartitionOf } from '@relay/contracts';
import type { BrokerNames, DeliveryChannel, DeliveryMessageV1 } from '@relay/contracts';
import { DeliveryQueueUnavailableError } from './errors';
import type { ConfirmPublisher, PublishOptions } from './publisher';

/** One delivery message and the channel whose queue takes it. */
interface QueuedDelivery {
  message: DeliveryMessageV1;
  channel: DeliveryChannel;
}

/**
 * Every delivery message Relay publishes goes through here: first deliveries (the gateway),
 * resends and bulk retries (the management API), scheduled retries and dead letters (the
 * deliverers), redriven deliveries (the redrive command). Each is persistent and mandatory and
 * awaited on its own broker confirm within the ConfirmPublisher's deadline, with the message id
 * `<delivery_id>.<attempt>` (`.dead` added in the dead-letter queue), so a delivery looks the same
 * to its consumer whoever published it. Every failure of the broker rejects with
 * DeliveryQueueUnavailableError; the edges map that as they must (503, requeue).
 */
export class DeliveryPublisher {
  private readonly names: BrokerNames;

  constructor(
    private readonly publisher: ConfirmPublisher,
    namespace: string,
  ) {
    this.names = brokerNames(namespace);
  }

  /**
   * To each channel's work queue — a delivery with an ordering key to its key's ordered partition
   * (docs/ordering.md) — and resolves once the broker confirmed every one.
   */
  async publish(deliveries: readonly QueuedDelivery[], headers?: Record<string, unknown>): Promise<void> {
    await Promise.all(
      deliveries.map(({ message, channel }) =>
        this.send(
          this.names.deliveriesExchange,
          message.order_key === undefined
            ? channel
            : this.names.orderedRoutingKey(channel, orderedPartitionOf(message.target_id, message.order_key)),
          message,
          '',
          headers,
        ),
      ),
    );
  }

  /** To the retry tier's TTL queue, which dead-letters it back to the work queue; tier 0 goes straight back. */
  retry(
    message: DeliveryMessageV1,
    channel: DeliveryChannel,
    tierMs: number,
    headers: Record<string, unknown>,
  ): Promise<void> {
    if (tierMs <= 0) return this.send(this.names.deliveriesExchange, channel, message, '', headers);
    return this.send(this.names.retryExchange, this.names.retryRoutingKey(channel, tierMs), message, '', headers);
  }

  /** To the channel's dead-letter queue, with the headers that say why. */
  deadLetter(message: DeliveryMessageV1, channel: DeliveryChannel, headers: Record<string, unknown>): Promise<void> {
    return this.send(this.names.deadLetterExchange, channel, message, '.dead', headers);
  }

  /**
   * A message taken off the dead-letter queue and put back as it was, bytes and headers (redrive
   * keeps what it does not move; it may not even be a delivery).
   */
  async returnToDead(channel: DeliveryChannel, content: Buffer, opts: PublishOptions): Promise<void> {
    await this.publisher.publish(this.names.deadLetterExchange, channel, content, opts).catch(rethrow);
  }

  private async send(
    exchange: string,
    routingKey: string,
    message: DeliveryMessageV1,
    idSuffix: string,
    headers: Record<string, unknown> | undefined,
  ): Promise<void> {
    await this.publisher
      .publish(exchange, routingKey, encodeMessage(message), {
        messageId: `${message.delivery_id}.${message.attempt}${idSuffix}`,
        type: message.type,
        ...(headers ? { headers } : {}),
      })
      .catch(rethrow);
  }
}

function rethrow(err: unknown): never {
  throw DeliveryQueueUnavailableError.from(err);
}
