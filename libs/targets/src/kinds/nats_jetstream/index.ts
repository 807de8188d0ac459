// The NATS JetStream output: settings, the message of one delivery, and its publish's classification.
export { natsJetStreamDescription, subjectProblem, validateNatsJetStreamConfig } from './config';
export type { NatsJetStreamConfig } from './config';
export { classifyNatsPublish } from './classify';
export { createNatsJetStreamKind, natsJetStreamInfo, natsMessage } from './kind';
export type { NatsJetStreamKindDeps } from './kind';
