// The RabbitMQ exchange output: settings, the message of one delivery, and its publish's classification.
export { amqpExchangeDescription, checkAmqpUrl, validateAmqpExchangeConfig } from './config';
export type { AmqpExchangeConfig } from './config';
export { classifyAmqpPublish } from './classify';
export { amqpExchangeInfo, amqpMessage, createAmqpExchangeKind } from './kind';
export type { AmqpExchangeKindDeps } from './kind';
