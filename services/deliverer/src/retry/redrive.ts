import { DeliveryPublisher } from '@relay/broker';
import type { BrokerConnection, ConfirmPublisher } from '@relay/broker';
import { ContractError, DELIVERY_V1, brokerNames, decodeMessage } from '@relay/contracts';
import type { DeliveryChannel } from '@relay/contracts';
import { SCHEDULE_BASE_HEADER, deliveryPosition } from './headers';

// the AMQP types, through the broker lib rather than amqplib itself
type Channel = Awaited<ReturnType<BrokerConnection['openChannel']>>;
type GetMessage = Exclude<Awaited<ReturnType<Channel['get']>>, false>;

export interface RedriveOptions {
  namespace: string;
  channel: DeliveryChannel;
  /** at most this many dead deliveries are looked at */
  limit: number;
  /** only deliveries of this target move; the others stay dead */
  targetId?: string;
}

export interface RedriveResult {
  /** sent back to the work queue */
  moved: number;
  /** looked at and left in the dead-letter queue (other target, or not a delivery) */
  kept: number;
}

/**
 * Moves dead-lettered deliveries back to the channel's work queue. Each one is published
 * (confirmed) before it is acked off the dead-letter queue, so a crash mid-redrive duplicates
 * at worst, never loses. A redriven delivery keeps its delivery id and continues its attempt
 * count (so X-Relay-Attempt keeps growing and the activity row keeps every earlier attempt),
 * while its retry schedule restarts from the first delay (x-relay-schedule-base).
 * Deliveries that stay are re-published to the tail; at most the queue's length at the start
 * is looked at, so a run always ends, even while deliverers dead-letter more.
 */
export async function redriveDeadDeliveries(
  broker: BrokerConnection,
  publisher: ConfirmPublisher,
  opts: RedriveOptions,
): Promise<RedriveResult> {
  const names = brokerNames(opts.namespace);
  const dead = names.deadDeliveryQueue(opts.channel);
  const ch = await broker.openChannel();
  const deliveries = new DeliveryPublisher(publisher, opts.namespace);
  const result: RedriveResult = { moved: 0, kept: 0 };
  try {
    const { messageCount } = await ch.checkQueue(dead);
    const budget = Math.min(opts.limit, messageCount);
    for (let i = 0; i < budget; i++) {
      const msg = await ch.get(dead, { noAck: false });
      if (!msg) break;
      const moved = await redriveOne(ch, msg, deliveries, opts);
      result[moved ? 'moved' : 'kept'] += 1;
    }
  } finally {
    await ch.close().catch(() => undefined);
  }
  return result;

  async function redriveOne(
    channel: Channel,
    msg: GetMessage,
    pub: DeliveryPublisher,
    o: RedriveOptions,
  ): Promise<boolean> {
    try {
      const d = decodeOrNull(msg);
      const move = d !== null && (o.targetId === undefined || d.target_id === o.targetId);
      if (d && move) {
        const next = deliveryPosition(d.attempt, msg.properties.headers).attempt + 1;
        await pub.publish([{ message: { ...d, attempt: next }, channel: o.channel }], {
          [SCHEDULE_BASE_HEADER]: next,
          'x-relay-redriven-at': new Date().toISOString(),
        });
      } else {
        // kept as it was, headers included (x-delivery-count still counts its attempts)
        await pub.returnToDead(o.channel, msg.content, {
          messageId: String(msg.properties.messageId ?? `kept.${Date.now()}.${Math.random()}`),
          type: String(msg.properties.type ?? ''),
          headers: msg.properties.headers,
        });
      }
      channel.ack(msg);
      return move;
    } catch (err) {
      channel.nack(msg, false, true);
      throw err;
    }
  }
}

function decodeOrNull(msg: GetMessage) {
  try {
    return decodeMessage(msg.content, [DELIVERY_V1]);
  } catch (err) {
    if (err instanceof ContractError) return null;
    throw err;
  }
}
