import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import type { ActivityAttemptV1, ActivityRequestV1, DeliveryMessageV1, RelayMessage } from './messages';
import { activityAttemptV1Schema, activityRequestV1Schema, deliveryV1Schema } from './schemas';

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
};
export type MessageType = keyof TypeMap;

const validators: { [K in MessageType]: ValidateFunction } = {
  'relay.delivery.v1': ajv.compile(deliveryV1Schema),
  'relay.activity.request.v1': ajv.compile(activityRequestV1Schema),
  'relay.activity.attempt.v1': ajv.compile(activityAttemptV1Schema),
};

function check(message: unknown): RelayMessage {
  const type = (message as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !(type in validators)) throw new ContractError(`unknown message type ${JSON.stringify(type)}`);
  const validate = validators[type as MessageType];
  if (!validate(message)) throw new ContractError(`${type}: ${ajv.errorsText(validate.errors)}`);
  return message as RelayMessage;
}

/** Producer side: refuses to publish a message its consumers would reject. */
export function encodeMessage(message: RelayMessage): Buffer {
  return Buffer.from(JSON.stringify(check(message)));
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
