// Local stand-ins the outputs bench delivers to: an SMTP server (STARTTLS + AUTH, as the relay
// default requires), a minimal HTTPS Google (token endpoint, values:batchGet/update/append), a
// reader of a stream on the real local Redis, a consumer of an exchange on the real RabbitMQ, a
// QoS 1 subscriber on a Mosquitto of the bench's own, a consumer of a stream on a nats-server
// of its own, one of a queue on an ElasticMQ of its own, a versitygw (S3) whose bucket is read
// back, and a consumer of a topic on the bench's Kafka. Each reports the delivery id of what it
// took. Not the test fakes: no JWT verification or
// quota here, only what a delivery costs the deliverer.
'use strict';
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const https = require('node:https');
const os = require('node:os');
const path = require('node:path');
const { CreateBucketCommand, ListBucketsCommand, ListObjectsV2Command, S3Client } = require('@aws-sdk/client-s3');
const {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  ListQueuesCommand,
  ReceiveMessageCommand,
  SQSClient,
} = require('@aws-sdk/client-sqs');
const { jetstream, jetstreamManager } = require('@nats-io/jetstream');
const { connect } = require('@nats-io/transport-node');
const amqp = require('amqplib');
const mqtt = require('mqtt');
const { Redis } = require('ioredis');
const { Kafka, logLevel } = require('kafkajs');
const { SMTPServer } = require('smtp-server');
const { generate } = require('selfsigned');
const { freePort, portOf, startProgram } = require('./lib');
const { elasticmqCommand, versitygwCommand } = require('./test-servers');

/** A self-signed certificate (PEM, with its key) for localhost and 127.0.0.1, valid a day. */
function certificate() {
  return generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    days: 1,
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
}

/**
 * SMTP on 127.0.0.1: every message's X-Relay-Delivery-ID goes to `onDelivery`.
 * @param {(deliveryId: string) => void} onDelivery
 * @param {{ user: string; pass: string }} auth
 */
async function startSmtp(onDelivery, auth) {
  const pems = certificate();
  const server = new SMTPServer({
    key: pems.private,
    cert: pems.cert,
    logger: false,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth: (a, _s, cb) =>
      a.username === auth.user && a.password === auth.pass ? cb(null, { user: a.username }) : cb(new Error('535 auth')),
    onData(stream, _session, cb) {
      let head = '';
      stream.on('data', (c) => {
        if (head.length < 4096) head += c.toString('latin1');
      });
      stream.on('end', () => {
        const id = /^X-Relay-Delivery-ID: *(\S+)/im.exec(head);
        if (id?.[1]) onDelivery(id[1]);
        cb(null, 'OK');
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  return {
    port: portOf(server.server),
    ca: pems.cert,
    close: () => new Promise((r) => server.close(() => r(undefined))),
  };
}

/**
 * HTTPS on 127.0.0.1 answering the four calls a spreadsheet delivery makes; the row's column A goes to `onDelivery`.
 * @param {(deliveryId: string) => void} onDelivery
 */
async function startSheets(onDelivery) {
  const pems = certificate();
  /** @type {unknown[]} */
  let header = [];
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const json = (/** @type {number} */ status, /** @type {unknown} */ value) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.url === '/token')
        return json(200, { access_token: 'ya29.bench', expires_in: 3600, token_type: 'Bearer' });
      if (req.method === 'GET') return json(200, { valueRanges: [header.length > 0 ? { values: [header] } : {}] });
      const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : {};
      if (req.method === 'PUT') {
        header = [...header, ...body.values[0]];
        return json(200, { updatedCells: body.values[0].length });
      }
      onDelivery(String(body.values[0][0]));
      return json(200, { updates: { updatedRows: 1 } });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  return {
    baseUrl: `https://127.0.0.1:${portOf(server)}`,
    ca: pems.cert,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r(undefined)));
    },
  };
}

/**
 * Reads `stream` on the Redis at `url` as entries arrive (XREAD BLOCK), each entry's delivery_id to
 * `onDelivery`; `close()` stops reading and deletes the stream.
 * @param {string} url
 * @param {string} stream
 * @param {(deliveryId: string) => void} onDelivery
 */
function readStream(url, stream, onDelivery) {
  const reader = new Redis(url);
  let open = true;
  const done = (async () => {
    let last = '0';
    while (open) {
      const got = await reader.xread('COUNT', 1000, 'BLOCK', 200, 'STREAMS', stream, last);
      for (const [, entries] of got ?? [])
        for (const [id, fields] of entries) {
          last = id;
          const at = fields.indexOf('delivery_id');
          if (at >= 0) onDelivery(String(fields[at + 1]));
        }
    }
  })();
  return {
    async close() {
      open = false;
      await done;
      await reader.del(stream);
      reader.disconnect();
    },
  };
}

/**
 * Declares `exchange` (fanout) on the RabbitMQ at `url` with an exclusive queue bound to it, each
 * message's message_id to `onDelivery`; `close()` deletes the exchange.
 * @param {string} url
 * @param {string} exchange
 * @param {(deliveryId: string) => void} onDelivery
 */
async function consumeExchange(url, exchange, onDelivery) {
  const connection = await amqp.connect(url);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'fanout', { durable: false });
  const { queue } = await channel.assertQueue('', { exclusive: true });
  await channel.bindQueue(queue, exchange, '');
  await channel.consume(queue, (m) => m && onDelivery(String(m.properties.messageId)), { noAck: true });
  return {
    async close() {
      await channel.deleteExchange(exchange);
      await connection.close();
    },
  };
}

/**
 * A Mosquitto (from `bash scripts/infra.sh tools`) on a free loopback port, anonymous and without
 * persistence, and an MQTT 5 subscriber at QoS 1 on `topic`: each message's `relay-delivery-id`
 * user property goes to `onDelivery`. `close()` stops both and removes its files.
 * @param {string} topic
 * @param {(deliveryId: string) => void} onDelivery
 */
async function startMosquitto(topic, onDelivery) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-mqtt-'));
  const port = await freePort();
  const conf = path.join(dir, 'mosquitto.conf');
  // run as this user: started by root, Mosquitto would drop to a user that cannot read `dir`
  const lines = [
    `listener ${port} 127.0.0.1`,
    'allow_anonymous true',
    `user ${os.userInfo().username}`,
    'log_dest none',
  ];
  fs.writeFileSync(conf, `${lines.join('\n')}\n`);
  const broker = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  const exited = new Promise((resolve) => broker.once('exit', resolve));
  const kill = () => broker.kill('SIGKILL');
  process.once('exit', kill);
  broker.once('error', () => undefined);
  const url = `mqtt://127.0.0.1:${port}`;
  const deadline = Date.now() + 10000;
  /** @type {import('mqtt').MqttClient | undefined} */
  let subscriber;
  while (!subscriber) {
    if (broker.exitCode !== null || Date.now() > deadline)
      throw new Error('mosquitto did not start (is it installed? `bash scripts/infra.sh tools`)');
    subscriber = await mqtt
      .connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0, connectTimeout: 1000 })
      .catch(() => new Promise((r) => setTimeout(() => r(undefined), 100)));
  }
  subscriber.on('message', (_topic, _payload, packet) =>
    onDelivery(String(packet.properties?.userProperties?.['relay-delivery-id'])),
  );
  await subscriber.subscribeAsync(topic, { qos: 1 });
  return {
    url,
    async close() {
      await subscriber.endAsync(true);
      broker.kill('SIGTERM');
      await exited;
      process.removeListener('exit', kill);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A private nats-server with JetStream on a free loopback port (the binary `bash scripts/infra.sh
 * tools` builds, or NATS_SERVER_BIN), its store in a temporary directory; a stream over
 * `bench.>` and an ordered consumer of it, reporting each message's `Nats-Msg-Id`.
 * @param {(deliveryId: string) => void} onDelivery
 */
async function consumeJetStream(onDelivery) {
  const bin = process.env.NATS_SERVER_BIN || path.join(__dirname, '..', '.infra', 'bin', 'nats-server');
  if (!fs.existsSync(bin)) throw new Error(`${bin} not found: run \`bash scripts/infra.sh tools\``);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-nats-'));
  const port = await freePort();
  const server = startProgram(bin, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], {});
  const url = `nats://127.0.0.1:${port}`;
  // ready once JetStream answers, not when the port opens
  let nc;
  for (const deadline = Date.now() + 20_000; !nc;) {
    nc = await connect({ servers: url, reconnect: false }).catch(() => undefined);
    if (!nc && Date.now() > deadline) throw new Error(`nats-server did not answer:\n${server.output()}`);
    if (!nc) await new Promise((r) => setTimeout(r, 100));
  }
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: 'BENCH', subjects: ['bench.>'] });
  const messages = await (await jetstream(nc).consumers.get('BENCH')).consume();
  void (async () => {
    for await (const m of messages) onDelivery(m.headers?.get('Nats-Msg-Id') ?? '');
  })();
  return {
    url,
    subject: 'bench.outputs',
    async close() {
      await messages.close();
      await nc.close();
      server.kill('SIGTERM');
      await server.exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts a server program at the lowest priority, in a process group of its own that the bench's
 * exit kills, and waits until `answers()` resolves true (a protocol handshake).
 * @param {string[]} command the program and its arguments
 * @param {() => Promise<boolean>} answers
 * @param {string} what the error's words if it never answers
 */
async function startServer(command, answers, what) {
  const server = spawn('nice', ['-n', '19', ...command], { stdio: 'ignore', detached: true });
  const kill = () => server.pid !== undefined && process.kill(-server.pid, 'SIGKILL');
  process.once('exit', kill);
  const deadline = Date.now() + 60_000;
  while (!(await answers())) {
    if (Date.now() > deadline || server.exitCode !== null)
      throw new Error(`${what} (bash scripts/infra.sh tools installs it)`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    stop() {
      kill();
      process.removeListener('exit', kill);
    },
  };
}

/**
 * An ElasticMQ (SQS-compatible, messages in memory) on a free loopback port with one queue; its
 * messages are read (long polls of 10) and deleted, each one's relay-delivery-id attribute to
 * `onDelivery`. `close()` stops reading and stops the server.
 * @param {(deliveryId: string) => void} onDelivery
 */
async function consumeSqs(onDelivery) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const client = new SQSClient({
    region: 'us-east-1',
    endpoint: url,
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
    maxAttempts: 1,
  });
  const server = await startServer(
    elasticmqCommand([
      `-Drest-sqs.bind-port=${port}`,
      '-Drest-sqs.bind-hostname=127.0.0.1',
      `-Dnode-address.port=${port}`,
      '-Dnode-address.host=127.0.0.1',
      '-Drest-stats.enabled=false',
    ]),
    () =>
      client.send(new ListQueuesCommand({})).then(
        () => true,
        () => false,
      ),
    `ElasticMQ did not answer on ${url}`,
  );
  const { QueueUrl: queueUrl } = await client.send(new CreateQueueCommand({ QueueName: 'bench' }));
  let open = true;
  const done = (async () => {
    while (open) {
      const got = await client.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: 10,
          WaitTimeSeconds: 1,
          MessageAttributeNames: ['relay-delivery-id'],
        }),
      );
      const messages = got.Messages ?? [];
      for (const m of messages) onDelivery(String(m.MessageAttributes?.['relay-delivery-id']?.StringValue));
      if (messages.length > 0)
        await client.send(
          new DeleteMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: String(m.ReceiptHandle) })),
          }),
        );
    }
  })();
  return {
    queueUrl: String(queueUrl),
    async close() {
      open = false;
      await done;
      client.destroy();
      server.stop();
    },
  };
}

/**
 * A versitygw (S3, posix backend in a temporary directory) on a free loopback port with one
 * bucket; its keys are listed every 100 ms, each new key's last segment (the delivery id, as the
 * kind's default key template ends) to `onDelivery`. `close()` stops listing and the server.
 * @param {string} dir an empty directory for the objects
 * @param {(deliveryId: string) => void} onDelivery
 */
async function watchBucket(dir, onDelivery) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: 'bench', secretAccessKey: randomBytes(18).toString('base64url') };
  fs.mkdirSync(path.join(dir, 'data'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: url,
    forcePathStyle: true,
    credentials,
    maxAttempts: 1,
  });
  const server = await startServer(
    versitygwCommand({ ...credentials, port, dir }),
    () =>
      client.send(new ListBucketsCommand({})).then(
        () => true,
        () => false,
      ),
    `versitygw did not answer on ${url}`,
  );
  await client.send(new CreateBucketCommand({ Bucket: 'bench' }));
  const seen = new Set();
  let open = true;
  const done = (async () => {
    while (open) {
      /** @type {string | undefined} */
      let token;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: 'bench', ContinuationToken: token }));
        for (const o of page.Contents ?? [])
          if (o.Key && !seen.has(o.Key)) {
            seen.add(o.Key);
            onDelivery(String(o.Key.split('/').pop()));
          }
        token = page.NextContinuationToken;
      } while (token);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    url,
    credentials,
    async close() {
      open = false;
      await done;
      client.destroy();
      server.stop();
    },
  };
}

/**
 * A topic on a bench Kafka (bench/kafka-broker.js), created here, and a consumer of it from its
 * beginning that hands each record's relay-delivery-id header to `onDelivery`.
 * @param {string} broker
 * @param {string} topic
 * @param {(deliveryId: string) => void} onDelivery
 */
async function consumeTopic(broker, topic, onDelivery) {
  const kafka = new Kafka({ clientId: 'bench', brokers: [broker], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  await admin.disconnect();
  const consumer = kafka.consumer({ groupId: `bench-${topic}` });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => onDelivery(String(message.headers?.['relay-delivery-id'] ?? '')),
  });
  return { close: () => consumer.disconnect() };
}

module.exports = {
  certificate,
  consumeExchange,
  consumeJetStream,
  consumeSqs,
  consumeTopic,
  readStream,
  startMosquitto,
  startSheets,
  startSmtp,
  watchBucket,
};
