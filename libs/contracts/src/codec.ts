import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { ACTIVITY_BATCH_V1, MAX_ACTIVITY_BATCH, MAX_PAYLOAD_BATCH, PAYLOAD_BATCH_V1 } from './messages';
import type {
  ActivityAttemptV1,
  ActivityBatchV1,
  ActivityMessage,
  ActivityRequestV1,
  DeliveryMessageV1,
  PayloadBatchV1,
  RelayMessage,
  StoredPayloadV1,
} from './messages';
import type { AccountEvent } from './account-events';
import {
  accountEventV1Schema,
  activityAttemptV1Schema,
  activityBatchV1Schema,
  activityRequestV1Schema,
  deliveryV1Schema,
  payloadBatchV1Schema,
} from './schemas';

/** A message that is not valid JSON or does not match its type's schema. Never retried. */
export class ContractError extends Error {
  readonly code = 'invalid_message';
  constructor(message: string) {
    super(message);
    this.name = 'ContractError';
  }
}

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv, ['date-time']);

type TypeMap = {
  'relay.delivery.v1': DeliveryMessageV1;
  'relay.activity.request.v1': ActivityRequestV1;
  'relay.activity.attempt.v1': ActivityAttemptV1;
  'relay.activity.batch.v1': ActivityBatchV1;
  'relay.payload.batch.v1': PayloadBatchV1;
  'relay.account-event.v1': AccountEvent;
};
export type MessageType = keyof TypeMap;

// Each schema's `$id` is its message type. Registered here, compiled on its type's first message:
// a process compiles only the types it handles, and importing the contracts stays cheap.
const SCHEMAS: { [K in MessageType]: object } = {
  'relay.delivery.v1': deliveryV1Schema,
  'relay.activity.request.v1': activityRequestV1Schema,
  'relay.activity.attempt.v1': activityAttemptV1Schema,
  'relay.activity.batch.v1': activityBatchV1Schema,
  'relay.payload.batch.v1': payloadBatchV1Schema,
  'relay.account-event.v1': accountEventV1Schema,
};
ajv.addSchema(Object.values(SCHEMAS));
/** ajv compiles a registered schema on its first `getSchema` and keeps it. */
const validatorOf = (type: unknown): ValidateFunction | undefined =>
  typeof type === 'string' && Object.hasOwn(SCHEMAS, type) ? ajv.getSchema(type) : undefined;

function check(message: unknown): RelayMessage {
  const type = (message as { type?: unknown } | null)?.type;
  const validate = validatorOf(type);
  if (!validate) throw new ContractError(`unknown message type ${JSON.stringify(type)}`);
  if (!validate(message)) throw new ContractError(`${type}: ${ajv.errorsText(validate.errors)}`);
  return message as RelayMessage;
}

/** Producer side: refuses to publish a message its consumers would reject. */
export function encodeMessage(message: RelayMessage): Buffer {
  return Buffer.from(JSON.stringify(check(message)));
}

/** Producer side, one activity record: checked alone, so a bad record fails alone instead of failing the batch it would join. */
export function checkActivityRecord(record: ActivityMessage): ActivityMessage {
  return check(record) as ActivityMessage;
}

/**
 * Producer side, a batch of records each already passed through `checkActivityRecord`: only
 * the envelope is checked here, so no record is validated twice on the hot path.
 */
export function encodeActivityBatch(records: readonly ActivityMessage[]): Buffer {
  if (records.length < 1 || records.length > MAX_ACTIVITY_BATCH)
    throw new ContractError(`${ACTIVITY_BATCH_V1}: ${records.length} records (1 to ${MAX_ACTIVITY_BATCH})`);
  return Buffer.from(JSON.stringify({ type: ACTIVITY_BATCH_V1, records }));
}

/** Producer side, stored payloads: the whole batch is checked (payloads are built by code, never by a sender). */
export function encodePayloadBatch(payloads: readonly StoredPayloadV1[]): Buffer {
  if (payloads.length < 1 || payloads.length > MAX_PAYLOAD_BATCH)
    throw new ContractError(`${PAYLOAD_BATCH_V1}: ${payloads.length} payloads (1 to ${MAX_PAYLOAD_BATCH})`);
  return encodeMessage({ type: PAYLOAD_BATCH_V1, payloads: [...payloads] });
}

/** Consumer side: parses and checks a body against one of the accepted types. */
export function decodeMessage<T extends MessageType>(body: Buffer, accepted: readonly T[]): TypeMap[T] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new ContractError('message body is not JSON');
  }
  const message = check(parsed);
  if (!accepted.includes(message.type as T)) throw new ContractError(`unexpected message type ${message.type}`);
  return message as TypeMap[T];
}
