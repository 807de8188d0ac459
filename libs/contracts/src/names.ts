/**
 * Every exchange, queue and routing key Relay uses, derived from one namespace so several
 * stacks (and every test) can share a broker without touching each other's queues.
 * Renaming any of these is a migration: see docs/operations.md "Renaming queues".
 */
/**
 * `outputs` carries the kinds that send through a transport of their own (email over SMTP,
 * spreadsheet rows over the Sheets API): slower, per-destination-quota'd attempts that must not
 * hold the chat channel's workers (docs/architecture.md "Deliverers").
 */
export type DeliveryChannel = 'webhook' | 'chat' | 'outputs';

export const DELIVERY_CHANNELS: readonly DeliveryChannel[] = ['webhook', 'chat', 'outputs'];

/**
 * The activity log's partitions on the broker: a record goes to the partition of its account, and
 * each partition is written by one activity-writer at a time, so writers scale by instance count
 * up to this number (docs/architecture.md "Partitioned writing"). Fixed: every publisher and
 * writer must agree on it, and changing it moves accounts between partitions — a migration
 * (docs/operations.md "Activity partitions").
 */
export const ACTIVITY_PARTITIONS = 8;

/**
 * The partition of an account's activity records: FNV-1a of the account id, stable across
 * processes and versions. Every record of a request (the gateway's, each delivery attempt's)
 * names the same account, so they all meet in one partition.
 */
export function activityPartitionOf(accountId: string, partitions: number = ACTIVITY_PARTITIONS): number {
  return fnv1a(accountId) % partitions;
}

/**
 * The partitions of a channel's ordered deliveries (docs/ordering.md): a target's deliveries of one
 * ordering key always meet in one partition queue, consumed by one deliverer at a time. Fixed for
 * the same reason as ACTIVITY_PARTITIONS: a key that moved partition while it had deliveries
 * queued could overtake them.
 */
export const ORDERED_PARTITIONS = 8;

/**
 * The channels whose deliverers keep a key's deliveries in order; only their kinds accept
 * `ordering`. Chat kinds are not among them: a chat message is read by people, under the
 * platform's limit of a message a second or so; the queue kinds' brokers order what they
 * receive, but the outputs deliverer sends a target's attempts concurrently (docs/ordering.md
 * "Kinds").
 */
export const ORDERED_CHANNELS: readonly DeliveryChannel[] = ['webhook'];

/** The partition of a target's ordering key: FNV-1a of both, stable across processes and versions. */
export function orderedPartitionOf(targetId: string, key: string, partitions: number = ORDERED_PARTITIONS): number {
  return fnv1a(`${targetId}\n${key}`) % partitions;
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export interface BrokerNames {
  /** direct exchange; routing key = delivery channel */
  deliveriesExchange: string;
  /** direct exchange; routing key = `activity` */
  activityExchange: string;
  /** direct exchange receiving rejected and exhausted messages; same routing keys */
  deadLetterExchange: string;
  /** direct exchange in front of the delay queues; routing key = `<channel>.<delay_ms>` */
  retryExchange: string;
  deliveryQueue: (channel: DeliveryChannel) => string;
  /** a channel's ordered deliveries of partition `k` (single active consumer; docs/ordering.md) */
  orderedQueue: (channel: DeliveryChannel, partition: number) => string;
  /** on the deliveries exchange */
  orderedRoutingKey: (channel: DeliveryChannel, partition: number) => string;
  /**
   * a queue no message is sent to, which every deliverer of the channel consumes: its consumer
   * count is the number of deliverers sharing the ordered partitions
   */
  orderedDeliverersQueue: (channel: DeliveryChannel) => string;
  deadDeliveryQueue: (channel: DeliveryChannel) => string;
  retryQueue: (channel: DeliveryChannel, delayMs: number) => string;
  retryRoutingKey: (channel: DeliveryChannel, delayMs: number) => string;
  /**
   * the activity queue of before partitions: no producer sends to it any more; a writer moves
   * what is left in it to the partitions (docs/architecture.md "Partitioned writing")
   */
  activityQueue: string;
  /** the activity records of partition `k` (0 … ACTIVITY_PARTITIONS − 1): one writer at a time (single active consumer) */
  activityPartitionQueue: (partition: number) => string;
  activityPartitionRoutingKey: (partition: number) => string;
  /** every partition queue, in order */
  activityPartitionQueues: string[];
  /**
   * a queue no message is sent to, which every activity-writer consumes: its consumer count is
   * the number of writers (a partition queue's counts only its one active consumer)
   */
  activityWritersQueue: string;
  deadActivityQueue: string;
  activityRoutingKey: string;
  /** stored payloads of accepted events (bound to the activity exchange; dead letters join the activity's) */
  payloadQueue: string;
  payloadRoutingKey: string;
  /** account events (alerts, docs/alerts.md), bound to the activity exchange; dead letters join the activity's */
  accountEventQueue: string;
  accountEventRoutingKey: string;
}

export function brokerNames(namespace: string): BrokerNames {
  return {
    deliveriesExchange: `${namespace}.deliveries`,
    activityExchange: `${namespace}.activity`,
    deadLetterExchange: `${namespace}.dlx`,
    retryExchange: `${namespace}.retry`,
    deliveryQueue: (channel) => `${namespace}.deliveries.${channel}`,
    orderedQueue: (channel, k) => `${namespace}.deliveries.${channel}.ordered.p${k}`,
    orderedRoutingKey: (channel, k) => `${channel}.ordered.p${k}`,
    orderedDeliverersQueue: (channel) => `${namespace}.deliveries.${channel}.ordered.deliverers`,
    deadDeliveryQueue: (channel) => `${namespace}.deliveries.${channel}.dead`,
    retryQueue: (channel, delayMs) => `${namespace}.retry.${channel}.${delayMs}ms`,
    retryRoutingKey: (channel, delayMs) => `${channel}.${delayMs}`,
    activityQueue: `${namespace}.activity`,
    activityPartitionQueue: (k) => `${namespace}.activity.p${k}`,
    activityPartitionRoutingKey: (k) => `activity.p${k}`,
    activityWritersQueue: `${namespace}.activity.writers`,
    activityPartitionQueues: Array.from({ length: ACTIVITY_PARTITIONS }, (_, k) => `${namespace}.activity.p${k}`),
    deadActivityQueue: `${namespace}.activity.dead`,
    activityRoutingKey: 'activity',
    payloadQueue: `${namespace}.payloads`,
    payloadRoutingKey: 'payload',
    accountEventQueue: `${namespace}.account-events`,
    accountEventRoutingKey: 'account-event',
  };
}
