export {
  ACTIVITY_PARTITIONS,
  activityPartitionOf,
  brokerNames,
  DELIVERY_CHANNELS,
  ORDERED_CHANNELS,
  ORDERED_PARTITIONS,
  orderedPartitionOf,
} from './names';
export type { BrokerNames, DeliveryChannel } from './names';
export { displayText } from './display-text';
export { DELIVERY_STATES, OUTCOMES, QUARANTINED_OUTCOMES } from './outcomes';
export type { DeliveryState } from './outcomes';
export { labelCanMatch, outcomeLabel } from './outcome-labels';
export {
  keptResponse,
  MAX_KEPT_BODY_CHARS,
  MAX_KEPT_HEADER_VALUE,
  MAX_KEPT_HEADERS,
  redactHeaders,
} from './kept-response';
export type { KeptResponse } from './kept-response';
export type { Outcome } from './outcomes';
export {
  ACTIVITY_ATTEMPT_V1,
  ACTIVITY_BATCH_V1,
  ACTIVITY_REQUEST_V1,
  DELIVERY_V1,
  MAX_ACTIVITY_BATCH,
  MAX_ATTEMPT_TRANSFORM_LOG_CHARS,
  MAX_ATTEMPT_TRANSFORM_LOGS,
  MAX_PAYLOAD_BATCH,
  MAX_PAYLOAD_BATCH_BYTES,
  PAYLOAD_BATCH_V1,
  QUARANTINE_STATES,
} from './messages';
export type {
  ActivityAttemptV1,
  ActivityMessage,
  ActivityAlert,
  ActivityRequestV1,
  AttemptOrderingNote,
  AttemptTransformNote,
  DeliveryMessageV1,
  DeliveryPayload,
  ForwardableRequest,
  QuarantineState,
  StoredPayloadV1,
} from './messages';
export {
  checkActivityRecord,
  ContractError,
  decodeMessage,
  encodeActivityBatch,
  encodeMessage,
  encodePayloadBatch,
} from './codec';
export { MAX_CONTENT_TYPE_LENGTH, MAX_ORDER_KEY_LENGTH, MAX_SOURCE_IP_LENGTH } from './schemas';
export type { MessageType } from './codec';
export {
  deliveryIdFor,
  deliveryOrderOf,
  isIdOf,
  newEventId,
  newId,
  resendDeliveryId,
  resendTag,
  timeOfId,
  timeOfResend,
  timedId,
} from './ids';
export {
  driftKey,
  idempotencyKey,
  orderingHeldKey,
  quarantineKey,
  quotaKey,
  quotaMonth,
  usageDailyField,
  usageDailyKey,
} from './redis-keys';
export type { HeldOrderKey } from './redis-keys';
export { cacheChangesChannel, cacheChangesSeqKey, decodeCacheChange, encodeCacheChange } from './cache-changes';
export type { CacheChange, NumberedCacheChange } from './cache-changes';
export { resultOf } from './validation';
export type { FieldError, Validation } from './validation';
export { ALWAYS_REMOVED, isNeverForwarded } from './forwarding';
export { TEST_REQUEST_ROUTE, testRequestPath } from './test-requests';
export type { TestRequestAnswer, TestRequestEnvelope } from './test-requests';
export { ACCOUNT_EVENT_KINDS, ACCOUNT_EVENT_V1, accountEvent } from './account-events';
export type { AccountEvent, AccountEventInput, AccountEventKind } from './account-events';
export {
  CLI_ANSWER_V1,
  CLI_BACKLOG_MAX_AGE_MS,
  CLI_BACKLOG_MAX_DELIVERIES,
  CLI_FORWARD_V1,
  CLI_MIRROR_MAX_PERCENT,
  CLI_MIRROR_MIN_PERCENT,
  cliBacklogQueue,
  cliSessionsExchange,
  isCliBacklogQueue,
} from './cli-sessions';
export type { CliAckFrame, CliAnswerV1, CliForwardV1, CliLocalOutcome, CliServerFrame } from './cli-sessions';
