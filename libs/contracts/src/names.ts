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
  deadDeliveryQueue: (channel: DeliveryChannel) => string;
  retryQueue: (channel: DeliveryChannel, delayMs: number) => string;
  retryRoutingKey: (channel: DeliveryChannel, delayMs: number) => string;
  activityQueue: string;
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
    deadDeliveryQueue: (channel) => `${namespace}.deliveries.${channel}.dead`,
    retryQueue: (channel, delayMs) => `${namespace}.retry.${channel}.${delayMs}ms`,
    retryRoutingKey: (channel, delayMs) => `${channel}.${delayMs}`,
    activityQueue: `${namespace}.activity`,
    deadActivityQueue: `${namespace}.activity.dead`,
    activityRoutingKey: 'activity',
    payloadQueue: `${namespace}.payloads`,
    payloadRoutingKey: 'payload',
    accountEventQueue: `${namespace}.account-events`,
    accountEventRoutingKey: 'account-event',
  };
}
