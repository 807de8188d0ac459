import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ListQueuesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { Message } from '@aws-sdk/client-sqs';
import { eventually } from './infra';
import { ELASTICMQ_LIB, elasticmqCommand } from '../../bench/test-servers';
import { ManagedServer, discardServers } from './private-servers';
import type { PrivateServer } from './private-servers';
import { freePort } from './services';

/*
 * The SQS target's test servers, private to one test file, on free loopback ports, from
 * `bash scripts/infra.sh tools` (docs/testing.md "Queue servers"):
 * - ElasticMQ (JVM) with its queues and messages on disk, so that a restart keeps both: the
 *   delivery and outage tests. It accepts any credentials and checks no signature.
 * - moto's server with IAM checks on: it recomputes each request's SigV4 signature with the
 *   secret of the access key it names, refuses an unknown key and one without an allowing
 *   policy: the wrong-credential test.
 */

const ROOT = path.resolve(__dirname, '../..');
/** as scripts/infra.sh pins it: the virtual environment's interpreter, which runs the server as a
 * module (the `moto_server` script's first line names the path the environment was made at) */
const MOTO_PYTHON = path.join(ROOT, '.infra', 'tools', 'moto-5.2.5', 'bin', 'python3');
const BASE_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };

export type SqsServer = PrivateServer & {
  /** a client of the server that reads what arrived (any credentials on ElasticMQ; the allowed key on moto) */
  client: SQSClient;
  close(): Promise<void>;
};

function installed(file: string): void {
  if (!existsSync(file)) throw new Error(`${file} not found: run \`bash scripts/infra.sh tools\` to install it`);
}

const clientOf = (url: string, accessKeyId: string, secretAccessKey: string): SQSClient =>
  new SQSClient({ region: 'us-east-1', endpoint: url, credentials: { accessKeyId, secretAccessKey }, maxAttempts: 1 });

async function started(server: ManagedServer, dir: string, client: SQSClient, timeoutMs: number): Promise<SqsServer> {
  const close = async (): Promise<void> => {
    client.destroy();
    await discardServers(dir, server);
  };
  try {
    await server.start(timeoutMs);
  } catch (err) {
    await close();
    throw err;
  }
  return Object.assign(server as PrivateServer, { client, close });
}

/** A private ElasticMQ: SQS's JSON API on a loopback port, its queues and messages kept across restarts. */
export async function startElasticMq(label: string): Promise<SqsServer> {
  installed(path.join(ELASTICMQ_LIB, '..', 'complete'));
  const dir = mkdtempSync(path.join(tmpdir(), `relay-${label}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  writeFileSync(
    path.join(dir, 'elasticmq.conf'),
    [
      'include classpath("application.conf")',
      `node-address { protocol = "http", host = "127.0.0.1", port = ${port}, context-path = "" }`,
      `rest-sqs { enabled = true, bind-port = ${port}, bind-hostname = "127.0.0.1", sqs-limits = strict }`,
      'rest-stats { enabled = false }',
      'aws { region = "us-east-1", accountId = "000000000000" }',
      `queues-storage { enabled = true, path = "${path.join(dir, 'queues.conf')}" }`,
      `messages-storage { enabled = true, uri = "jdbc:h2:${path.join(dir, 'messages')}" }`,
    ].join('\n'),
  );
  const client = clientOf(url, 'test', 'test');
  const server = new ManagedServer(
    {
      name: 'elasticmq',
      url,
      command: 'nice',
      args: ['-n', '19', ...elasticmqCommand([`-Dconfig.file=${path.join(dir, 'elasticmq.conf')}`])],
      env: BASE_ENV,
      handshake: async () => {
        await client.send(new ListQueuesCommand({}));
      },
    },
    path.join(dir, 'elasticmq.log'),
  );
  return started(server, dir, client, 60_000);
}

/** moto's server with IAM checks on, and the one access key it allows to use SQS. */
export async function startMotoSqs(
  label: string,
): Promise<SqsServer & { accessKeyId: string; secretAccessKey: string }> {
  installed(MOTO_PYTHON);
  const dir = mkdtempSync(path.join(tmpdir(), `relay-${label}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = new ManagedServer(
    {
      name: 'moto',
      url,
      command: 'nice',
      args: ['-n', '19', MOTO_PYTHON, '-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)],
      env: BASE_ENV,
      handshake: async () => {
        const res = await fetch(`${url}/moto-api/data.json`);
        if (res.status !== 200) throw new Error(`moto answered ${res.status}`);
      },
    },
    path.join(dir, 'moto.log'),
  );
  const running = await started(server, dir, clientOf(url, 'setup', 'setup'), 60_000);
  try {
    const key = await allowedKey(url);
    // from here on every request is authenticated: signature, key and policy
    const on = await fetch(`${url}/moto-api/reset-auth`, { method: 'POST', body: '0' });
    if (on.status !== 200) throw new Error(`moto refused to turn IAM checks on (${on.status})`);
    running.client.destroy();
    return Object.assign(running, { client: clientOf(url, key.accessKeyId, key.secretAccessKey) }, key);
  } catch (err) {
    await running.close();
    throw err;
  }
}

/**
 * An IAM user allowed sqs:*, and its access key, made while moto still takes unsigned requests
 * (IAM's query API: the credential scope names the service, the signature is not checked yet).
 */
async function allowedKey(url: string): Promise<{ accessKeyId: string; secretAccessKey: string }> {
  const iam = async (params: Record<string, string>): Promise<string> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization:
          'AWS4-HMAC-SHA256 Credential=setup/20260101/us-east-1/iam/aws4_request, SignedHeaders=host, Signature=0',
      },
      body: new URLSearchParams({ Version: '2010-05-08', ...params }),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`IAM ${params.Action} answered ${res.status}: ${text.slice(0, 200)}`);
    return text;
  };
  await iam({ Action: 'CreateUser', UserName: 'relay' });
  const created = await iam({ Action: 'CreateAccessKey', UserName: 'relay' });
  const policy = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'sqs:*', Resource: '*' }] };
  await iam({ Action: 'PutUserPolicy', UserName: 'relay', PolicyName: 'sqs', PolicyDocument: JSON.stringify(policy) });
  const accessKeyId = /<AccessKeyId>([^<]+)</.exec(created)?.[1];
  const secretAccessKey = /<SecretAccessKey>([^<]+)</.exec(created)?.[1];
  if (!accessKeyId || !secretAccessKey) throw new Error('IAM CreateAccessKey returned no key');
  return { accessKeyId, secretAccessKey };
}

/** A queue of the test's own; FIFO when the name ends in `.fifo`. Returns its URL. */
export async function createQueue(server: SqsServer, name: string): Promise<string> {
  const fifo = name.endsWith('.fifo');
  const created = await server.client.send(
    new CreateQueueCommand({ QueueName: name, ...(fifo ? { Attributes: { FifoQueue: 'true' } } : {}) }),
  );
  return created.QueueUrl!;
}

/**
 * Reads the queue until `n` messages arrived, deleting each once read (as a consumer does), so
 * that what a later read finds arrived after this one.
 */
export async function receive(server: SqsServer, queueUrl: string, n: number, timeoutMs = 30_000): Promise<Message[]> {
  const got: Message[] = [];
  return eventually(
    async () => {
      const r = await server.client.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          MessageAttributeNames: ['All'],
          MessageSystemAttributeNames: ['All'],
        }),
      );
      for (const m of r.Messages ?? []) {
        got.push(m);
        await server.client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
      }
      return got.length >= n ? got : undefined;
    },
    timeoutMs,
    `${n} messages on ${queueUrl}`,
  );
}

/** Messages in the queue, visible or being read. */
export async function queueDepth(server: SqsServer, queueUrl: string): Promise<number> {
  const { Attributes: a } = await server.client.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(a?.ApproximateNumberOfMessages ?? 0) + Number(a?.ApproximateNumberOfMessagesNotVisible ?? 0);
}
