// The Amazon SQS output: settings, the message of one delivery, and its send's classification.
export { isFifoQueue, sqsDescription, validateSqsConfig } from './config';
export type { SqsConfig } from './config';
export { classifySqsSend } from './classify';
export { createSqsKind, MAX_SQS_MESSAGE_BYTES, sqsInfo, sqsMessage } from './kind';
export type { SqsKindDeps } from './kind';
