export { BrokerConnection } from './connection';
export { ConfirmPublisher } from './publisher';
export type { PublishResult } from './publisher';
export { QueueConsumer } from './consumer';
export { BrokerUnavailableError, DeliveryQueueUnavailableError } from './errors';
export { DeliveryPublisher } from './delivery-publisher';
export { consumeDecoded, decodingHandler } from './decoding-consumer';
export { ACTIVITY_LINGER_MS, createActivityPublisher } from './activity-publisher';
export type { ActivityPublisher } from './activity-publisher';
export { registerBrokerMetrics } from './broker-metrics';
export { createPayloadPublisher } from './payload-publisher';
export type { PayloadPublisher } from './payload-publisher';
export {
  activityQueuesOf,
  deliveryQueuesOf,
  QUEUE_STATS_CACHE_MS,
  QueueStatsReader,
  registerQueueMetrics,
} from './queue-metrics';
export { publishAccountEvent } from './account-event-publisher';
export { CliForwarder, deleteCliBacklog, openCliSessionQueue } from './cli-sessions';
export type { CliBacklogBounds, CliBacklogHandler, CliForwardHandler, CliSessionQueue } from './cli-sessions';
