export { createSqsLink } from './queue';
export type { SqsLink, SqsMessage, SqsQueue, SqsSendOutcome } from './queue';
