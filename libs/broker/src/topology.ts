import type { Channel } from 'amqplib';
import {
  ACTIVITY_PARTITIONS,
  DELIVERY_CHANNELS,
  ORDERED_CHANNELS,
  ORDERED_PARTITIONS,
  brokerNames,
} from '@relay/contracts';
import type { DeliveryChannel } from '@relay/contracts';

export interface TopologyOptions {
  namespace: string;
  /**
   * Redeliveries of one message (consumer crashes, nacks with requeue) before the broker
   * dead-letters it. RabbitMQ 3.10 has no default for quorum queues, so it is set explicitly.
   */
  deliveryLimit: number;
  /** delay tiers of the retry queues, per delivery channel (empty: declare none) */
  retryDelaysMs?: Partial<Record<DeliveryChannel, readonly number[]>>;
}

/**
 * Declares every exchange and queue idempotently. Called by each service at start-up and
 * after every reconnect; asserting an existing entity with the same arguments is a no-op,
 * while different arguments make the broker close the channel (PRECONDITION_FAILED), which
 * surfaces a drifted deployment at once instead of silently using the old queue.
 *
 * Work queues are quorum queues: a publisher confirm then means the message is on disk on a
 * majority, and redeliveries carry `x-delivery-count`. Delay tiers are one queue per delay
 * with a queue-level TTL that dead-letters back to the work exchange — the per-queue TTL
 * avoids the head-of-line blocking of per-message TTLs. They are quorum queues too, with
 * at-least-once dead-lettering (3.10+, needs `reject-publish` overflow): an expiring retry is
 * removed from its tier only once the work queue confirmed it, so a broker restart mid-move
 * cannot lose it (classic queues dead-letter at-most-once). docs/delivery.md.
 */
export async function declareTopology(ch: Channel, opts: TopologyOptions): Promise<void> {
  const n = brokerNames(opts.namespace);
  for (const exchange of [n.deliveriesExchange, n.activityExchange, n.deadLetterExchange, n.retryExchange]) {
    await ch.assertExchange(exchange, 'direct', { durable: true });
  }
  const workQueueArgs = {
    'x-queue-type': 'quorum',
    'x-dead-letter-exchange': n.deadLetterExchange,
    'x-delivery-limit': opts.deliveryLimit,
  };
  for (const channel of DELIVERY_CHANNELS) {
    await ch.assertQueue(n.deliveryQueue(channel), { durable: true, arguments: workQueueArgs });
    await ch.bindQueue(n.deliveryQueue(channel), n.deliveriesExchange, channel);
    await ch.assertQueue(n.deadDeliveryQueue(channel), { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    await ch.bindQueue(n.deadDeliveryQueue(channel), n.deadLetterExchange, channel);
    // a channel's ordered deliveries: a key always meets its earlier deliveries in one partition,
    // and each partition is consumed by one deliverer at a time (docs/ordering.md)
    if (ORDERED_CHANNELS.includes(channel)) {
      // bound to nothing: its consumers are the channel's deliverers, counted when they share the partitions out
      await ch.assertQueue(n.orderedDeliverersQueue(channel), {
        durable: true,
        arguments: { 'x-queue-type': 'quorum' },
      });
      for (let k = 0; k < ORDERED_PARTITIONS; k++) {
        await ch.assertQueue(n.orderedQueue(channel, k), {
          durable: true,
          arguments: { ...workQueueArgs, 'x-single-active-consumer': true, 'x-dead-letter-routing-key': channel },
        });
        await ch.bindQueue(n.orderedQueue(channel, k), n.deliveriesExchange, n.orderedRoutingKey(channel, k));
      }
    }
    for (const delayMs of opts.retryDelaysMs?.[channel] ?? []) {
      const queue = n.retryQueue(channel, delayMs);
      await ch.assertQueue(queue, {
        durable: true,
        arguments: {
          'x-queue-type': 'quorum',
          'x-message-ttl': delayMs,
          'x-dead-letter-exchange': n.deliveriesExchange,
          'x-dead-letter-routing-key': channel,
          'x-dead-letter-strategy': 'at-least-once',
          'x-overflow': 'reject-publish',
        },
      });
      await ch.bindQueue(queue, n.retryExchange, n.retryRoutingKey(channel, delayMs));
    }
  }
  // the queue of before partitions stays declared (what a producer of before sent still lands
  // there, and the writers move it to the partitions)
  await ch.assertQueue(n.activityQueue, { durable: true, arguments: workQueueArgs });
  await ch.bindQueue(n.activityQueue, n.activityExchange, n.activityRoutingKey);
  // one queue per partition, each consumed by one writer at a time: RabbitMQ gives a partition
  // to the first writer that subscribes and hands it to another when that writer's channel closes
  for (let k = 0; k < ACTIVITY_PARTITIONS; k++) {
    await ch.assertQueue(n.activityPartitionQueue(k), {
      durable: true,
      arguments: {
        ...workQueueArgs,
        'x-single-active-consumer': true,
        'x-dead-letter-routing-key': n.activityRoutingKey,
      },
    });
    await ch.bindQueue(n.activityPartitionQueue(k), n.activityExchange, n.activityPartitionRoutingKey(k));
  }
  // bound to nothing: its consumers are the writers, counted when they share the partitions out
  await ch.assertQueue(n.activityWritersQueue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await ch.assertQueue(n.deadActivityQueue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await ch.bindQueue(n.deadActivityQueue, n.deadLetterExchange, n.activityRoutingKey);
  // stored payloads (resend): large messages on a queue of their own, so the activity-writer can
  // take few of them at once while it holds thousands of small activity records; their dead
  // letters join the activity's
  await ch.assertQueue(n.payloadQueue, {
    durable: true,
    arguments: { ...workQueueArgs, 'x-dead-letter-routing-key': n.activityRoutingKey },
  });
  await ch.bindQueue(n.payloadQueue, n.activityExchange, n.payloadRoutingKey);
  // account events (alerts, docs/alerts.md): few, small, consumed by the alert evaluator
  await ch.assertQueue(n.accountEventQueue, {
    durable: true,
    arguments: { ...workQueueArgs, 'x-dead-letter-routing-key': n.activityRoutingKey },
  });
  await ch.bindQueue(n.accountEventQueue, n.activityExchange, n.accountEventRoutingKey);
}
