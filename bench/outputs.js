// npm run bench (part 3): deliveries/s of ONE outputs deliverer (the deliverer program with
// DELIVERY_CHANNEL=outputs) for an email target (SMTP with STARTTLS + AUTH to a local server),
// a spreadsheet target (a local HTTPS Google: header read + append per row), a Redis Streams
// target (XADD to the real local Redis, a reader on the stream), a RabbitMQ exchange target
// (confirmed publishes to the real local RabbitMQ, a consumer on the exchange), an MQTT target
// (QoS 1 publishes to a Mosquitto of the bench's own, a QoS 1 subscriber), a NATS JetStream target
// (acknowledged publishes to a nats-server of its own, a consumer on the stream), an SQS target
// (SendMessage to an ElasticMQ of its own, a consumer on the queue), an S3 target (PutObject
// to a versitygw of its own, its bucket listed) and a Kafka target (idempotent produces, acks=all,
// over SASL PLAIN to a single-node Kafka the bench starts: bench/kafka-broker.js; a consumer on
// the topic), on the real local RabbitMQ and FerretDB, closed loop as bench/deliverer.js does for webhooks. Prints one
// JSON line per kind; writes bench-results/outputs.json.
'use strict';
const { generateKeyPairSync, randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { BrokerConnection, ConfirmPublisher, DeliveryPublisher } = require('@relay/broker');
const { brokerNames, DELIVERY_V1 } = require('@relay/contracts');
const { createLogger } = require('@relay/logging');
const { createSecretBox } = require('@relay/secrets');
const { connectStore, insertTarget } = require('@relay/store');
const {
  createAmqpExchangeKind,
  createEmailKind,
  createKafkaKind,
  createMqttKind,
  createNatsJetStreamKind,
  createS3Kind,
  createRedisStreamKind,
  createSpreadsheetKind,
  createSqsKind,
} = require('@relay/targets');
const { cleanup, closedLoop, settingsOf } = require('./delivery-loop');
const { freePort, startProcess, waitFor, writeResults } = require('./lib');
const { startKafka } = require('./kafka-broker');
const {
  consumeExchange,
  consumeJetStream,
  consumeSqs,
  consumeTopic,
  readStream,
  startMosquitto,
  startSheets,
  startSmtp,
  watchBucket,
} = require('./outputs-receivers');

const ROOT = path.resolve(__dirname, '..');
const S = settingsOf('BENCH_OUTPUT_DELIVERIES', 5000, 'bench_out');
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const KINDS = ['email', 'spreadsheet', 'redis_stream', 'amqp_exchange', 'mqtt', 'nats_jetstream', 'sqs', 's3', 'kafka'];

/**
 * @param {string} kind
 * @param {number} i
 * @returns {import('@relay/contracts').DeliveryMessageV1}
 */
function delivery(kind, i) {
  return {
    type: DELIVERY_V1,
    event_id: `evt_${kind}${i}`,
    delivery_id: `dlv_${kind}${i}_bench`,
    attempt: 1,
    account_id: 'acc_bench',
    endpoint_id: 'ep_bench',
    target_id: `tg_${kind}`,
    target_kind: kind,
    received_at: new Date().toISOString(),
    request: { method: 'POST', source_ip: '127.0.0.1', headers: {}, query: '' },
    payload: { content_type: 'application/json', body_base64: S.body.toString('base64') },
  };
}

/**
 * Publishes S.n deliveries to `kind`'s target with at most S.window outstanding; measures after the warm-up.
 * @param {string} kind
 * @param {import('@relay/broker').DeliveryPublisher} publisher
 * @param {{ on(deliveryId: string): void }} arrivals
 */
async function measure(kind, publisher, arrivals) {
  const loop = closedLoop(S, kind);
  arrivals.on = (id) => loop.arrived(id);
  const figures = await loop.run((i) => {
    const d = delivery(kind, i);
    return { id: d.delivery_id, published: publisher.publish([{ message: d, channel: 'outputs' }]) };
  });
  return { kind, ...figures };
}

async function main() {
  const secretsKeys = `bench:${randomBytes(32).toString('base64')}`;
  const secrets = createSecretBox(secretsKeys);
  /** @type {{ on(deliveryId: string): void }} */
  const arrivals = { on: () => undefined };
  const smtpAuth = { user: 'bench', pass: randomBytes(12).toString('hex') };
  const smtp = await startSmtp((id) => arrivals.on(id), smtpAuth);
  const sheets = await startSheets((id) => arrivals.on(id));
  // a key of the bench's own run on the local Redis, deleted at the end
  const stream = `bench-stream:${S.namespace}`;
  const streamReader = readStream(REDIS_URL, stream, (id) => arrivals.on(id));
  const exchange = `bench-exchange-${S.namespace}`;
  const exchangeConsumer = await consumeExchange(S.rabbitmqUrl, exchange, (id) => arrivals.on(id));
  const mosquitto = await startMosquitto('bench/outputs', (id) => arrivals.on(id));
  const jetStream = await consumeJetStream((id) => arrivals.on(id));
  const queue = await consumeSqs((id) => arrivals.on(id));
  const kafka = await startKafka('bench-kafka');
  const topic = `bench-${S.namespace}`;
  const topicConsumer = await consumeTopic(kafka.broker, topic, (id) => arrivals.on(id));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-out-'));
  fs.mkdirSync(path.join(dir, 's3'));
  const bucket = await watchBucket(path.join(dir, 's3'), (id) => arrivals.on(id));
  fs.writeFileSync(path.join(dir, 'smtp.pem'), smtp.ca);
  fs.writeFileSync(path.join(dir, 'google.pem'), sheets.ca);

  const store = await connectStore(S.mongodbUrl);
  const email = createEmailKind({ secrets }).validateConfig({ to: ['ops@example.com'], subject: 'Order {{event}}' });
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyFile = JSON.stringify({
    type: 'service_account',
    client_email: 'bench@bench.iam.gserviceaccount.com',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
  });
  const sheet = createSpreadsheetKind({ secrets }).validateConfig({
    spreadsheet_id: 'b'.repeat(44),
    service_account_key: keyFile,
  });
  const redisStream = createRedisStreamKind({ secrets }).validateConfig({ url: REDIS_URL, stream });
  const amqpExchange = createAmqpExchangeKind({ secrets }).validateConfig({ url: S.rabbitmqUrl, exchange });
  const mqttTopic = createMqttKind({ secrets }).validateConfig({ url: mosquitto.url, topic: 'bench/outputs' });
  const natsJetStream = createNatsJetStreamKind({ secrets }).validateConfig({
    servers: [jetStream.url],
    subject: jetStream.subject,
  });
  const sqs = createSqsKind({ secrets }).validateConfig({
    queue_url: queue.queueUrl,
    region: 'us-east-1',
    access_key_id: 'bench',
    secret_access_key: 'bench',
  });
  const s3 = createS3Kind({ secrets }).validateConfig({
    endpoint: bucket.url,
    region: 'us-east-1',
    bucket: 'bench',
    access_key_id: bucket.credentials.accessKeyId,
    secret_access_key: bucket.credentials.secretAccessKey,
    path_style: true,
  });
  const kafkaTopic = createKafkaKind({ secrets }).validateConfig({
    brokers: [kafka.saslBroker],
    topic,
    sasl: { mechanism: 'plain', ...kafka.user },
  });
  for (const [kind, cfg] of /** @type {const} */ ([
    ['email', email],
    ['spreadsheet', sheet],
    ['redis_stream', redisStream],
    ['amqp_exchange', amqpExchange],
    ['mqtt', mqttTopic],
    ['nats_jetstream', natsJetStream],
    ['sqs', sqs],
    ['s3', s3],
    ['kafka', kafkaTopic],
  ])) {
    if (!cfg.ok) throw new Error(`${kind}: ${JSON.stringify(cfg.errors)}`);
    await insertTarget(store, `tg_${kind}`, 'acc_bench', 'ep_bench', {
      kind,
      name: kind,
      enabled: true,
      config: { ...cfg.value },
      // no rate: the bench measures what a delivery costs the deliverer, not a kind's default
      // limit (a spreadsheet's 60 writes a minute, Google's quota)
      limits: { rate: null, per: 'second', max_in_flight: null },
    });
  }

  const logger = createLogger({ service: 'bench', level: 'warn', stream: process.stderr });
  const broker = new BrokerConnection({
    url: S.rabbitmqUrl,
    connectionName: 'bench outputs',
    logger,
    topology: { namespace: S.namespace, deliveryLimit: 20 },
  });
  await broker.start();
  // through the one delivery publisher, as the gateway sends them
  const publisher = new DeliveryPublisher(new ConfirmPublisher(broker, 10000), S.namespace);
  const healthPort = await freePort();
  const deliverer = startProcess(path.join(ROOT, 'services/deliverer/dist/main.js'), {
    DELIVERY_CHANNEL: 'outputs',
    RABBITMQ_URL: S.rabbitmqUrl,
    MONGODB_URL: S.mongodbUrl,
    REDIS_URL,
    RELAY_NAMESPACE: S.namespace,
    SSRF_ALLOW_CIDRS: '127.0.0.1/32',
    SECRETS_KEYS: secretsKeys,
    HEALTH_PORT: String(healthPort),
    PREFETCH: String(S.prefetch),
    RETRY_TIERS_MS: String(S.tierMs),
    RETRY_AFTER_MAX_MS: String(S.tierMs),
    LOG_LEVEL: 'warn',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_USERNAME: smtpAuth.user,
    SMTP_PASSWORD: smtpAuth.pass,
    SMTP_FROM: 'relay@bench.example',
    SMTP_CA_FILE: path.join(dir, 'smtp.pem'),
    GOOGLE_TOKEN_URL: `${sheets.baseUrl}/token`,
    GOOGLE_SHEETS_URL: `${sheets.baseUrl}/v4/spreadsheets/`,
    GOOGLE_CA_FILE: path.join(dir, 'google.pem'),
  });
  try {
    await waitFor(`http://127.0.0.1:${healthPort}/readyz`).catch((err) => {
      throw new Error(`${err.message}\n${deliverer.output()}`);
    });
    const results = [];
    for (const kind of KINDS) {
      const result = await measure(kind, publisher, arrivals).catch((err) => {
        throw new Error(`${err.message}\n${deliverer.output().slice(-2000)}`);
      });
      process.stdout.write(`${JSON.stringify(result)}\n`);
      results.push(result);
    }
    writeResults('outputs', { results, at: new Date().toISOString() });
  } finally {
    if (deliverer.exitCode === null && deliverer.signalCode === null) {
      deliverer.kill('SIGTERM');
      await deliverer.exited;
    }
    await cleanup(S, broker, store, brokerNames(S.namespace));
    await smtp.close();
    await sheets.close();
    await streamReader.close();
    await exchangeConsumer.close();
    await mosquitto.close();
    await jetStream.close();
    await queue.close();
    await bucket.close();
    await topicConsumer.close();
    await kafka.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`bench/outputs failed: ${err.stack || err}\n`);
  process.exit(1);
});
