export { BrokerConnection } from './connection';
export type { BrokerConnectionOptions, BrokerSession } from './connection';
export { ConfirmPublisher } from './publisher';
export type { PublishOptions } from './publisher';
export { QueueConsumer } from './consumer';
export type { ConsumerOptions, Disposition, MessageHandler } from './consumer';
export { BrokerUnavailableError } from './errors';
export { declareTopology } from './topology';
export type { TopologyOptions } from './topology';
