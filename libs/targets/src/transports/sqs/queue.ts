import type * as ClientSqs from '@aws-sdk/client-sqs';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { MessageAttributeValue } from '@aws-sdk/client-sqs';
import { awsClientConfig, pooledAwsClients } from '../aws';
import type { AwsAccess, AwsFailure } from '../aws';
import { onFirstUse } from '../on-first-use';
import type { PooledLink, PooledLinkOptions, PoolOwner } from '../pool';

const clientSqs = onFirstUse(() => require('@aws-sdk/client-sqs') as typeof ClientSqs);

/** Where one queue is and who signs for it; `endpoint` is the queue URL's origin. */
export interface SqsQueue extends AwsAccess {
  queueUrl: string;
}

/** One message to send: string attributes, and on a FIFO queue its group and deduplication id. */
export interface SqsMessage {
  body: string;
  attributes: Readonly<Record<string, string>>;
  groupId?: string;
  deduplicationId?: string;
}

/** What a SendMessage came to: the queue's message id, or why not. */
export type SqsSendOutcome = { messageId: string } | { error: AwsFailure };

/** The outputs deliverer's route to the queues of SQS targets. */
export interface SqsLink extends PooledLink {
  send(owner: PoolOwner, queue: SqsQueue, message: SqsMessage): Promise<SqsSendOutcome>;
}

/** An error answer in XML (the query protocol's form) that the JSON client could not read. */
class XmlErrorAnswer extends Error {
  readonly $fault: 'client' | 'server';
  readonly $metadata: { httpStatusCode: number };
  constructor(
    readonly Code: string,
    message: string,
    status: number,
  ) {
    super(message);
    this.name = Code;
    this.$fault = status >= 500 ? 'server' : 'client';
    this.$metadata = { httpStatusCode: status };
  }
}

/** an error document is small; a larger answer is not read past this */
const ERROR_BODY_BYTES = 16 * 1024;

async function readSome(body: unknown): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > ERROR_BODY_BYTES) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

const xmlTag = (xml: string, tag: string): string | undefined =>
  new RegExp(`<${tag}>([^<]{1,256})</${tag}>`).exec(xml)?.[1];

/**
 * SQS answers in JSON, but SQS-compatible servers (and AWS's own front ends before a request
 * reaches SQS) may refuse a request in the query protocol's XML: `<Code>SignatureDoesNotMatch</Code>`.
 * The JSON client reads that as a parse failure without the code; this step, inside the client's
 * deserializer, reads the code itself so that the refusal is classified by it.
 */
function readXmlErrors(client: SQSClient): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const out = await next(args);
      const res = out.response as { statusCode?: number; headers?: Record<string, string>; body?: unknown };
      const status = res.statusCode ?? 200;
      const type = res.headers?.['content-type'] ?? '';
      if (status < 300 || type.includes('json') || res.body === undefined) return out;
      const text = await readSome(res.body);
      const code = xmlTag(text, 'Code');
      if (code === undefined) throw new XmlErrorAnswer(`HTTP${status}`, `HTTP ${status}`, status);
      throw new XmlErrorAnswer(code, xmlTag(text, 'Message') ?? code, status);
    },
    { step: 'deserialize', priority: 'low', name: 'relayXmlErrorAnswers' },
  );
}

function openClient(queue: SqsQueue, opts: PooledLinkOptions): SQSClient {
  const client = new (clientSqs().SQSClient)(awsClientConfig(queue, opts));
  readXmlErrors(client);
  return client;
}

/** Pooled SQS clients (transports/aws), one per target's queue URL, region and keys. */
export function createSqsLink(opts: PooledLinkOptions): SqsLink {
  const clients = pooledAwsClients(opts, (queue: SqsQueue) => openClient(queue, opts));
  return {
    send: (owner, queue, message) =>
      clients.call(owner, queue, async (client) => {
        const attributes: Record<string, MessageAttributeValue> = {};
        for (const [name, value] of Object.entries(message.attributes))
          attributes[name] = { DataType: 'String', StringValue: value };
        const sent = await client.send(
          new (clientSqs().SendMessageCommand)({
            QueueUrl: queue.queueUrl,
            MessageBody: message.body,
            MessageAttributes: attributes,
            ...(message.groupId !== undefined ? { MessageGroupId: message.groupId } : {}),
            ...(message.deduplicationId !== undefined ? { MessageDeduplicationId: message.deduplicationId } : {}),
          }),
        );
        return { messageId: sent.MessageId ?? '' };
      }),
    get size() {
      return clients.size;
    },
    release: (id) => clients.release(id),
    close: () => clients.close(),
  };
}
