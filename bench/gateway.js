// npm run bench (part 1): the ingest gateway on the real local Redis, RabbitMQ and FerretDB
// against a bare express app answering 202, under the same closed-loop load, in one run.
// Prints accepted/s, p50/p99 latency of the 202 and the ratio; writes bench-results/gateway.json.
'use strict';
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const amqp = require('amqplib');
const { connectStore, insertAccount, insertEndpoint, insertTarget } = require('@relay/store');
const { brokerNames, DELIVERY_CHANNELS, newId } = require('@relay/contracts');
const { freePort, startProcess, waitFor, load, writeResults } = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const env = {
  RABBITMQ_URL: process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672',
  REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  MONGODB_BASE: process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay',
};
const durationS = Number(process.env.BENCH_DURATION_S || 10);
const connections = Number(process.env.BENCH_CONNECTIONS || 64);
// a 1 KB JSON body, like the reference measurement
// the gateway answers an id not shaped like newId('ep') with 404 without a store read
const ENDPOINT_ID = newId('ep');
const body = JSON.stringify({ event: 'order.created', id: 'x'.repeat(16), data: { note: 'y'.repeat(940) } });

/** @param {string} mongodbUrl */
async function seed(mongodbUrl) {
  const store = await connectStore(mongodbUrl);
  await insertAccount(store, {
    id: 'acc_bench',
    name: 'bench',
    plan: { name: 'bench', monthly_accepted_events: 1e9, payload_limit_bytes: 1048576 },
  });
  await insertEndpoint(store, ENDPOINT_ID, 'acc_bench', {
    name: 'bench',
    enabled: true,
    paused: false,
    methods: ['POST'],
    payload_format: 'json',
    inbound_auth: { type: 'NONE' },
    rate_limit_per_minute: 100000,
  });
  await insertTarget(store, 'tg_bench', 'acc_bench', ENDPOINT_ID, {
    kind: 'webhook',
    name: 'sink',
    enabled: true,
    config: { url: 'http://127.0.0.1:9/hook', enforce_https: false },
  });
  return store;
}

/**
 * @param {string} namespace
 * @param {import('@relay/store').Store} store
 */
async function cleanup(namespace, store) {
  await store.connection.dropDatabase().catch(() => undefined);
  await store.close();
  const conn = await amqp.connect(env.RABBITMQ_URL);
  const ch = await conn.createChannel();
  const n = brokerNames(namespace);
  for (const q of [
    n.activityQueue,
    n.deadActivityQueue,
    n.payloadQueue,
    ...DELIVERY_CHANNELS.flatMap((c) => [n.deliveryQueue(c), n.deadDeliveryQueue(c)]),
  ])
    await ch.deleteQueue(q).catch(() => undefined);
  for (const e of [n.deliveriesExchange, n.activityExchange, n.deadLetterExchange, n.retryExchange])
    await ch.deleteExchange(e).catch(() => undefined);
  await conn.close();
}

async function main() {
  const namespace = `bench_${randomBytes(3).toString('hex')}`;
  const mongodbUrl = env.MONGODB_BASE.replace(/\/[^/]*$/, `/${namespace}`);
  const store = await seed(mongodbUrl);
  const [barePort, gatewayPort, healthPort] = [await freePort(), await freePort(), await freePort()];
  const bare = startProcess(path.join(__dirname, 'bare-express.js'), { PORT: String(barePort) });
  const gateway = startProcess(
    path.join(ROOT, 'services/ingest-gateway/dist/main.js'),
    {
      RABBITMQ_URL: env.RABBITMQ_URL,
      REDIS_URL: env.REDIS_URL,
      MONGODB_URL: mongodbUrl,
      RELAY_NAMESPACE: namespace,
      PORT: String(gatewayPort),
      HEALTH_PORT: String(healthPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SECRETS_KEYS: `bench:${randomBytes(32).toString('base64')}`,
      // tracing on (docs/observability.md "Cost"): OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 node bench/gateway.js
      ...(process.env.OTEL_EXPORTER_OTLP_ENDPOINT
        ? { OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT }
        : {}),
    },
    (process.env.GATEWAY_NODE_ARGS || '').split(' ').filter(Boolean),
  ); // e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"

  try {
    await waitFor(`http://127.0.0.1:${barePort}/nothing`);
    await waitFor(`http://127.0.0.1:${healthPort}/readyz`);
    const headers = { 'content-type': 'application/json' };
    const opts = { connections, durationS, body, headers };
    // warm both up (JIT, connection pools, the endpoint cache) before measuring
    await load(`http://127.0.0.1:${barePort}/relay/${ENDPOINT_ID}`, { ...opts, durationS: 2 });
    await load(`http://127.0.0.1:${gatewayPort}/relay/${ENDPOINT_ID}`, { ...opts, durationS: 2 });
    const bareResult = await load(`http://127.0.0.1:${barePort}/relay/${ENDPOINT_ID}`, opts);
    const gatewayResult = await load(`http://127.0.0.1:${gatewayPort}/relay/${ENDPOINT_ID}`, opts);
    const report = {
      at: new Date().toISOString(),
      load: {
        tool: 'autocannon (closed loop)',
        connections,
        duration_s: durationS,
        body_bytes: Buffer.byteLength(body),
      },
      bare_express: bareResult,
      gateway: gatewayResult,
      ratio: Number((gatewayResult.accepted_per_s / bareResult.accepted_per_s).toFixed(3)),
    };
    writeResults('gateway', report);
    const row = (/** @type {string} */ name, /** @type {Awaited<ReturnType<typeof load>>} */ r) =>
      `${name.padEnd(14)} ${String(r.accepted_per_s).padStart(7)} accepted/s   p50 ${r.p50_ms} ms   p99 ${r.p99_ms} ms   non-2xx ${r.non_2xx}   errors ${r.errors}`;
    console.log(
      `\ningest throughput, ${connections} connections × ${durationS} s, ${report.load.body_bytes}-byte JSON POST`,
    );
    console.log(row('bare express', bareResult));
    console.log(row('gateway', gatewayResult));
    console.log(`ratio gateway / bare express: ${report.ratio}`);
  } finally {
    bare.kill();
    gateway.kill('SIGTERM');
    await gateway.exited;
    await cleanup(namespace, store);
  }
}

main().catch((err) => {
  console.error(`bench failed: ${err.stack || err}`);
  process.exit(1);
});
