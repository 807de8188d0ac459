export { amqpErrorCode, createAmqpLink } from './exchange';
export type { AmqpLink, AmqpMessage, PublishOutcome } from './exchange';
