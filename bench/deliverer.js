// npm run bench (part 2): deliveries/s of ONE webhook-deliverer process against a local receiver,
// on the real local RabbitMQ and FerretDB. Closed loop: at most BENCH_WINDOW deliveries are
// outstanding (published, not yet received), so the latency (publish → receiver) is that of a
// busy deliverer, not of a backlog the publisher built up. Prints one JSON line
// {"deliveries_per_s","p50_ms","p99_ms","n",…}; writes bench-results/deliverer.json.
'use strict';
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { BrokerConnection, ConfirmPublisher } = require('@relay/broker');
const { brokerNames, encodeMessage, DELIVERY_CHANNELS, DELIVERY_V1 } = require('@relay/contracts');
const { createLogger } = require('@relay/logging');
const { createSecretBox } = require('@relay/secrets');
const { connectStore } = require('@relay/store');
const { createWebhookKind } = require('@relay/targets');
const { freePort, startProcess, waitFor } = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const bounded = (v, def, max) => Math.max(1, Math.min(max, Number(v) || def));
const N = bounded(process.env.BENCH_DELIVERIES, 20000, 100000);
const WARMUP = Math.min(500, Math.floor(N / 10));
const WINDOW = bounded(process.env.BENCH_WINDOW, 64, 5000);
const PREFETCH = bounded(process.env.BENCH_PREFETCH, 32, 1000);
const TIMEOUT_MS = bounded(process.env.BENCH_TIMEOUT_MS, 300000, 1800000);
const TIER_MS = 1000; // one small tier: nothing retries here, and cleanup knows every queue
const rabbitmqUrl = process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672';
const namespace = `bench_dlv_${randomBytes(4).toString('hex')}`;
const mongodbUrl = (() => {
  const u = new URL(process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay');
  u.pathname = `/${namespace}`;
  return u.toString();
})();
const body = Buffer.from(JSON.stringify({ event: 'order.created', data: { note: 'y'.repeat(940) } }));
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** The receiver answers 200 at once and notes when each delivery (by X-Relay-Delivery-Id) arrived. */
function startReceiver(onDelivery) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      onDelivery(String(req.headers['x-relay-delivery-id']), Number(req.headers['x-relay-attempt']));
      res.writeHead(200, { 'content-length': '2' }).end('ok');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function delivery(i) {
  return {
    type: DELIVERY_V1, event_id: `evt_b${i}`, delivery_id: `dlv_b${i}_bench`, attempt: 1, account_id: 'acc_bench', endpoint_id: 'ep_bench',
    target_id: 'tg_bench', target_kind: 'webhook', received_at: new Date().toISOString(),
    request: { method: 'POST', source_ip: '127.0.0.1', headers: {}, query: '' },
    payload: { content_type: 'application/json', body_base64: body.toString('base64') },
  };
}

async function main() {
  const secretsKeys = `bench:${randomBytes(32).toString('base64')}`;
  const sentAt = new Map();
  const latencies = [];
  let received = 0;
  let duplicates = 0;
  let wake = () => undefined;
  const receiver = await startReceiver((id, attempt) => {
    const t0 = sentAt.get(id);
    if (t0 === undefined || attempt !== 1) return void (duplicates += 1);
    sentAt.delete(id);
    if (received >= WARMUP) latencies.push(performance.now() - t0);
    received += 1;
    wake();
  });
  const store = await connectStore(mongodbUrl);
  const kind = createWebhookKind({ secrets: createSecretBox(secretsKeys) });
  const cfg = kind.validateConfig({ url: `http://127.0.0.1:${receiver.address().port}/hook`, enforce_https: false });
  if (!cfg.ok) throw new Error(`webhook config refused: ${JSON.stringify(cfg.errors)}`);
  const now = new Date();
  await store.targets.create({ _id: 'tg_bench', account_id: 'acc_bench', endpoint_id: 'ep_bench', kind: 'webhook', name: 'sink', enabled: true, config: cfg.value, flagged: null, created_at: now, updated_at: now });

  const logger = createLogger({ service: 'bench', level: 'warn', stream: process.stderr });
  const broker = new BrokerConnection({ url: rabbitmqUrl, connectionName: 'bench deliverer', logger, topology: { namespace, deliveryLimit: 20 } });
  await broker.start();
  const publisher = new ConfirmPublisher(broker, 10000);
  const names = brokerNames(namespace);

  const healthPort = await freePort();
  const deliverer = startProcess(path.join(ROOT, 'services/webhook-deliverer/dist/main.js'), {
    RABBITMQ_URL: rabbitmqUrl, MONGODB_URL: mongodbUrl, RELAY_NAMESPACE: namespace, SSRF_ALLOW_CIDRS: '127.0.0.0/8', SECRETS_KEYS: secretsKeys,
    HEALTH_PORT: String(healthPort), PREFETCH: String(PREFETCH), RETRY_TIERS_MS: String(TIER_MS), RETRY_AFTER_MAX_MS: String(TIER_MS), LOG_LEVEL: 'info',
  });
  try {
    await waitFor(`http://127.0.0.1:${healthPort}/readyz`).catch((err) => {
      throw new Error(`${err.message}\n${deliverer.output()}`);
    });
    const deadline = Date.now() + TIMEOUT_MS;
    let published = 0;
    let measuredFrom = 0;
    let failure = null;
    while (received < N) {
      if (failure) throw failure;
      if (Date.now() > deadline) throw new Error(`timed out: ${received} of ${N} deliveries arrived`);
      if (received === WARMUP && measuredFrom === 0) measuredFrom = performance.now();
      if (published < N && published - received < WINDOW) {
        const d = delivery(published++);
        sentAt.set(d.delivery_id, performance.now());
        publisher.publish(names.deliveriesExchange, 'webhook', encodeMessage(d), { messageId: `${d.delivery_id}.1`, type: d.type }).catch((err) => {
          failure = err;
          wake();
        });
        continue;
      }
      await new Promise((resolve) => {
        wake = resolve;
        setTimeout(resolve, 1000).unref();
      });
    }
    const seconds = (performance.now() - measuredFrom) / 1000;
    latencies.sort((a, b) => a - b);
    const result = {
      deliveries_per_s: Math.round((N - WARMUP) / seconds),
      p50_ms: Number(percentile(latencies, 50).toFixed(1)),
      p99_ms: Number(percentile(latencies, 99).toFixed(1)),
      n: N - WARMUP,
      warmup: WARMUP,
      window: WINDOW,
      prefetch: PREFETCH,
      duplicates,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench-results', 'deliverer.json'), `${JSON.stringify({ ...result, at: new Date().toISOString() }, null, 2)}\n`);
  } finally {
    if (deliverer.exitCode === null && deliverer.signalCode === null) {
      const exited = new Promise((r) => deliverer.once('exit', r));
      deliverer.kill('SIGTERM');
      await exited;
    }
    await cleanup(broker, store, names);
    receiver.closeAllConnections();
    receiver.close();
  }
}

async function cleanup(broker, store, names) {
  const ch = await broker.openChannel();
  ch.on('error', () => undefined);
  const queues = [names.activityQueue, names.deadActivityQueue, names.payloadQueue, ...DELIVERY_CHANNELS.flatMap((c) => [names.deliveryQueue(c), names.deadDeliveryQueue(c), names.retryQueue(c, TIER_MS)])];
  for (const q of queues) await ch.deleteQueue(q).catch(() => undefined);
  for (const e of [names.deliveriesExchange, names.activityExchange, names.deadLetterExchange, names.retryExchange]) await ch.deleteExchange(e).catch(() => undefined);
  await broker.close();
  await store.connection.dropDatabase().catch(() => undefined);
  await store.close();
}

main().catch((err) => {
  process.stderr.write(`bench/deliverer failed: ${err.stack || err}\n`);
  process.exit(1);
});
