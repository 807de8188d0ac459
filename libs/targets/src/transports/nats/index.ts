export { createNatsLink, natsErrorCode } from './jetstream';
export type { NatsAuth, NatsLink, NatsMessage, NatsPublishOutcome, NatsServers } from './jetstream';
