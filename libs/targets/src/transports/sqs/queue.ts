import { createHash } from 'node:crypto';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { MessageAttributeValue } from '@aws-sdk/client-sqs';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { createSsrfAgents } from '../../ssrf';
import { ClientPool } from '../pool';
import type { PooledLinkOptions } from '../pool';

/** Where one queue is and who signs for it: the plaintext credentials, held only in memory. */
export interface SqsQueue {
  queueUrl: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** One message to send: string attributes, and on a FIFO queue its group and deduplication id. */
export interface SqsMessage {
  body: string;
  attributes: Readonly<Record<string, string>>;
  groupId?: string;
  deduplicationId?: string;
}

/**
 * What a SendMessage came to: the queue's message id, or an error: the service's code
 * (`QueueDoesNotExist`, `AWS.SimpleQueueService.NonExistentQueue`, `InvalidClientTokenId`), its
 * HTTP status and fault, or the socket's code (`ECONNREFUSED`, `SSRF_BLOCKED`) with no status.
 */
export type SqsSendOutcome =
  { messageId: string } | { error: { code: string; message: string; status?: number; fault?: 'client' | 'server' } };

/** The outputs deliverer's route to the queues of SQS targets. */
export interface SqsLink {
  send(queue: SqsQueue, message: SqsMessage): Promise<SqsSendOutcome>;
  readonly size: number;
  close(): void;
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

/**
 * The SDK's error as an outcome: a service error by its code — the query-compatible `Code`
 * (`AWS.SimpleQueueService.NonExistentQueue`) when it has one, else its name — a socket error by
 * its code, a client-side timeout as `ETIMEDOUT`.
 */
export function sqsError(err: unknown): Extract<SqsSendOutcome, { error: unknown }>['error'] {
  const e = err as {
    name?: string;
    Code?: unknown;
    code?: unknown;
    message?: string;
    $fault?: 'client' | 'server';
    $metadata?: { httpStatusCode?: number };
  };
  const message = String(e?.message ?? err);
  const status = e?.$metadata?.httpStatusCode;
  if (status !== undefined) {
    const code = typeof e.Code === 'string' && e.Code !== '' ? e.Code : (e.name ?? `HTTP${status}`);
    return { code, message, status, ...(e.$fault ? { fault: e.$fault } : {}) };
  }
  if (typeof e?.code === 'string') return { code: e.code, message };
  if (e?.name === 'TimeoutError' || /timed? ?out/i.test(message)) return { code: 'ETIMEDOUT', message };
  return { code: 'ESQS', message };
}

function openClient(queue: SqsQueue, opts: PooledLinkOptions): SQSClient {
  // one pair of guarded agents per client: destroying an idle client closes its own sockets only
  const agents = createSsrfAgents({ allowCidrs: opts.allowCidrs });
  const client = new SQSClient({
    region: queue.region,
    // the queue URL's origin: an SQS-compatible server is reached as SQS itself is
    endpoint: new URL(queue.queueUrl).origin,
    credentials: { accessKeyId: queue.accessKeyId, secretAccessKey: queue.secretAccessKey },
    // one try per attempt: Relay's schedule retries, the SDK does not retry inside an attempt
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler({
      httpAgent: agents.http,
      httpsAgent: agents.https,
      connectionTimeout: opts.connectTimeoutMs,
      requestTimeout: opts.commandTimeoutMs,
      throwOnRequestTimeout: true,
    }),
  });
  readXmlErrors(client);
  return client;
}

/**
 * Pooled SQS clients, one per queue URL, region and credentials, keyed by a digest of them: a
 * changed setting gets a client of its own and the old one idles out, and the pool holds no
 * credential in its keys. A client is plain HTTPS with keep-alive: it stays usable after any
 * error, and a network failure closes its sockets so that the next attempt dials afresh.
 */
export function createSqsLink(opts: PooledLinkOptions): SqsLink {
  const pool = new ClientPool<SQSClient>({
    healthy: () => true,
    close: (c) => c.destroy(),
    maxClients: opts.maxClients,
    idleMs: opts.idleMs,
  });
  return {
    async send(queue, message) {
      const key = createHash('sha256')
        .update(JSON.stringify([queue.queueUrl, queue.region, queue.accessKeyId, queue.secretAccessKey]))
        .digest('base64url');
      try {
        const client = await pool.get(key, () => Promise.resolve(openClient(queue, opts)));
        const attributes: Record<string, MessageAttributeValue> = {};
        for (const [name, value] of Object.entries(message.attributes))
          attributes[name] = { DataType: 'String', StringValue: value };
        const sent = await client.send(
          new SendMessageCommand({
            QueueUrl: queue.queueUrl,
            MessageBody: message.body,
            MessageAttributes: attributes,
            ...(message.groupId !== undefined ? { MessageGroupId: message.groupId } : {}),
            ...(message.deduplicationId !== undefined ? { MessageDeduplicationId: message.deduplicationId } : {}),
          }),
        );
        return { messageId: sent.MessageId ?? '' };
      } catch (err) {
        const error = sqsError(err);
        // no answer: the connection is in doubt; an answer leaves it usable
        if (error.status === undefined) pool.discard(key);
        return { error };
      }
    },
    get size() {
      return pool.size;
    },
    close: () => pool.close(),
  };
}
