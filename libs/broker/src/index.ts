export { BrokerConnection } from './connection';
export type { BrokerConnectionOptions, BrokerSession } from './connection';
export { ConfirmPublisher } from './publisher';
export type { PublishOptions, PublishResult } from './publisher';
export { QueueConsumer } from './consumer';
export type { ConsumerOptions, Disposition, MessageHandler } from './consumer';
export { BrokerUnavailableError, DeliveryQueueUnavailableError } from './errors';
export { DeliveryPublisher } from './delivery-publisher';
export type { QueuedDelivery } from './delivery-publisher';
export { declareTopology } from './topology';
export type { TopologyOptions } from './topology';
export { consumeDecoded, decodingHandler } from './decoding-consumer';
export type { Decoded, DecodedHandler, DecodingOptions } from './decoding-consumer';
export { PublishBatcher } from './batcher';
export type { BatcherOptions } from './batcher';
export { ACTIVE_PARTITION_MS, ACTIVITY_LINGER_MS, createActivityPublisher } from './activity-publisher';
export type { ActivityBatchOptions } from './activity-publisher';
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
export type { QueueStat, QueueStatsOptions } from './queue-metrics';
export { publishAccountEvent } from './account-event-publisher';
export { CliForwarder, openCliSessionQueue } from './cli-sessions';
export type { CliForwardHandler, CliNoAnswer, CliSessionQueue, CliSessionQueueOptions } from './cli-sessions';
