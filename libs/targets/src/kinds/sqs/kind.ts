import { createHash } from 'node:crypto';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { describedConfig } from '../../describe/kind-config';
import type { KindInfo, SecretSealer, TransportKind } from '../../kind';
import { PayloadError } from '../../kind';
import { ownerOf } from '../../transports/pool';
import type { SqsLink, SqsMessage } from '../../transports/sqs';
import { openAwsKeys } from '../aws-access';
import { QUEUE_RETRY_SCHEDULE_MS } from '../queue-schedule';
import { readPayload, renderTemplate, templateData } from '../template';
import { classifySqsSend } from './classify';
import { isFifoQueue, sqsDescription } from './config';
import type { SqsConfig } from './config';

/**
 * On the outputs channel with the other queue kinds, and their schedule. `resendable` is false:
 * a SendMessage whose answer was lost may have been stored, and the next attempt sends again (a
 * FIFO queue drops it within its 5-minute deduplication interval; a standard queue's consumers
 * drop a repeated `relay-delivery-id`).
 */
export const sqsInfo: KindInfo = {
  kind: 'sqs',
  channel: 'outputs',
  defaultRetryScheduleMs: QUEUE_RETRY_SCHEDULE_MS,
  description: sqsDescription,
  resendable: false,
};

export interface SqsKindDeps {
  secrets: SecretSealer;
  /** only the outputs deliverer has one; elsewhere the kind only validates and shows configs */
  sqs?: SqsLink;
}

/** SendMessage's limit on a message: its body plus each attribute's name, type and value. */
export const MAX_SQS_MESSAGE_BYTES = 256 * 1024;
/** MessageGroupId: at most 128 of the characters SQS accepts (SendMessage, "MessageGroupId"). */
const GROUP_ID = /^[\x21-\x7e]{1,128}$/;
/**
 * The characters a message body may hold (SendMessage, "MessageBody"): XML's, so a NUL or an
 * unpaired surrogate is refused.
 */
const SQS_TEXT = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text when SQS can carry it so; else base64, said by `relay-body-encoding`. */
function bodyOf(bytes: Buffer): { body: string; encoding?: 'base64' | 'empty' } {
  // SQS refuses an empty body: a request without one is sent as a marker the attribute explains
  if (bytes.length === 0) return { body: '(empty)', encoding: 'empty' };
  try {
    const text = utf8.decode(bytes);
    if (SQS_TEXT.test(text)) return { body: text };
  } catch {
    // not UTF-8: an image, a protobuf; sent as base64 below
  }
  return { body: bytes.toString('base64'), encoding: 'base64' };
}

/**
 * The group of a FIFO message: the template rendered against the payload; the endpoint id when
 * it renders empty (the path is absent), so such messages stay in order among themselves; a
 * value SQS would refuse (over 128 characters, a space) replaced by its SHA-256, so one value
 * is always one group.
 */
function groupOf(config: SqsConfig, d: DeliveryMessageV1): string {
  const rendered = renderTemplate(config.message_group_id, templateData(readPayload(d.payload)));
  if (rendered === '') return d.endpoint_id;
  return GROUP_ID.test(rendered) ? rendered : createHash('sha256').update(rendered).digest('hex');
}

const attributeBytes = (attributes: Record<string, string>): number =>
  Object.entries(attributes).reduce(
    (n, [k, v]) => n + Buffer.byteLength(k) + 'String'.length + Buffer.byteLength(v),
    0,
  );

/** The message of one delivery: the same on every attempt; on a FIFO queue deduplicated by the delivery id. */
export function sqsMessage(config: SqsConfig, d: DeliveryMessageV1): SqsMessage {
  const { body, encoding } = bodyOf(Buffer.from(d.payload.body_base64, 'base64'));
  const attributes: Record<string, string> = {
    'relay-event-id': d.event_id,
    'relay-delivery-id': d.delivery_id,
    'relay-endpoint-id': d.endpoint_id,
    ...(d.payload.content_type ? { 'content-type': d.payload.content_type } : {}),
    ...(encoding ? { 'relay-body-encoding': encoding } : {}),
  };
  const size = Buffer.byteLength(body) + attributeBytes(attributes);
  if (size > MAX_SQS_MESSAGE_BYTES)
    throw new PayloadError(
      'MESSAGE_TOO_LARGE',
      `the message is ${size} bytes with its attributes${encoding === 'base64' ? ' (the body as base64)' : ''}; SQS takes at most ${MAX_SQS_MESSAGE_BYTES}`,
    );
  if (!isFifoQueue(config.queue_url)) return { body, attributes };
  return { body, attributes, groupId: groupOf(config, d), deduplicationId: d.delivery_id };
}

/** Each delivery sent to the target's queue (docs/targets-queues.md "Amazon SQS"). */
export function createSqsKind(deps: SqsKindDeps): TransportKind<SqsConfig> {
  return {
    ...sqsInfo,
    ...describedConfig<SqsConfig>(sqsDescription, deps.secrets),
    deliver: async (config, d) => {
      if (!deps.sqs) return { result: 'retry', status: null, error: 'this deliverer cannot reach SQS queues' };
      const message = sqsMessage(config, d);
      return classifySqsSend(
        await deps.sqs.send(
          ownerOf(d),
          {
            queueUrl: config.queue_url,
            // the queue URL's origin: an SQS-compatible server is reached as SQS itself is
            endpoint: new URL(config.queue_url).origin,
            ...openAwsKeys(deps.secrets, config, 'SQS'),
          },
          message,
        ),
      );
    },
  };
}
