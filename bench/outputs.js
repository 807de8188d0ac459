// npm run bench (part 3): deliveries/s of ONE outputs deliverer (the chat-deliverer program with
// DELIVERY_CHANNEL=outputs) for an email target (SMTP with STARTTLS + AUTH to a local server) and
// for a spreadsheet target (a local HTTPS Google: header read + append per row), on the real
// local RabbitMQ and FerretDB, closed loop as bench/deliverer.js does for webhooks. Prints one
// JSON line per kind; writes bench-results/outputs.json.
'use strict';
const { generateKeyPairSync, randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { BrokerConnection, ConfirmPublisher } = require('@relay/broker');
const { brokerNames, encodeMessage, DELIVERY_CHANNELS, DELIVERY_V1 } = require('@relay/contracts');
const { createLogger } = require('@relay/logging');
const { createSecretBox } = require('@relay/secrets');
const { connectStore } = require('@relay/store');
const { createEmailKind, createSpreadsheetKind } = require('@relay/targets');
const { freePort, startProcess, waitFor } = require('./lib');
const { startSheets, startSmtp } = require('./outputs-receivers');

const ROOT = path.resolve(__dirname, '..');
const bounded = (v, def, max) => Math.max(1, Math.min(max, Number(v) || def));
const N = bounded(process.env.BENCH_OUTPUT_DELIVERIES, 5000, 100000);
const WARMUP = Math.min(500, Math.floor(N / 10));
const WINDOW = bounded(process.env.BENCH_WINDOW, 64, 5000);
const PREFETCH = bounded(process.env.BENCH_PREFETCH, 32, 1000);
const TIMEOUT_MS = bounded(process.env.BENCH_TIMEOUT_MS, 300000, 1800000);
const TIER_MS = 1000;
const rabbitmqUrl = process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672';
const namespace = `bench_out_${randomBytes(4).toString('hex')}`;
const mongodbUrl = (() => {
  const u = new URL(process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay');
  u.pathname = `/${namespace}`;
  return u.toString();
})();
// the webhook bench's payload: about 1 KB of JSON
const body = Buffer.from(JSON.stringify({ event: 'order.created', data: { note: 'y'.repeat(940) } }));
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function delivery(kind, i) {
  return {
    type: DELIVERY_V1, event_id: `evt_${kind}${i}`, delivery_id: `dlv_${kind}${i}_bench`, attempt: 1, account_id: 'acc_bench', endpoint_id: 'ep_bench',
    target_id: `tg_${kind}`, target_kind: kind, received_at: new Date().toISOString(),
    request: { method: 'POST', source_ip: '127.0.0.1', headers: {}, query: '' },
    payload: { content_type: 'application/json', body_base64: body.toString('base64') },
  };
}

/** Publishes N deliveries to `kind`'s target with at most WINDOW outstanding; measures after WARMUP. */
async function measure(kind, publisher, names, arrivals) {
  const sentAt = new Map();
  const latencies = [];
  let received = 0;
  let wake = () => undefined;
  arrivals.on = (id) => {
    const t0 = sentAt.get(id);
    if (t0 === undefined) return;
    sentAt.delete(id);
    if (received >= WARMUP) latencies.push(performance.now() - t0);
    received += 1;
    wake();
  };
  const deadline = Date.now() + TIMEOUT_MS;
  let published = 0;
  let measuredFrom = 0;
  let failure = null;
  while (received < N) {
    if (failure) throw failure;
    if (Date.now() > deadline) throw new Error(`${kind}: timed out, ${received} of ${N} deliveries arrived`);
    if (received === WARMUP && measuredFrom === 0) measuredFrom = performance.now();
    if (published < N && published - received < WINDOW) {
      const d = delivery(kind, published++);
      sentAt.set(d.delivery_id, performance.now());
      publisher.publish(names.deliveriesExchange, 'outputs', encodeMessage(d), { messageId: `${d.delivery_id}.1`, type: d.type }).catch((err) => {
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
  latencies.sort((a, b) => a - b);
  const seconds = (performance.now() - measuredFrom) / 1000;
  return { kind, deliveries_per_s: Math.round((N - WARMUP) / seconds), p50_ms: Number(percentile(latencies, 50).toFixed(1)), p99_ms: Number(percentile(latencies, 99).toFixed(1)), n: N - WARMUP, warmup: WARMUP, window: WINDOW, prefetch: PREFETCH };
}

async function main() {
  const secretsKeys = `bench:${randomBytes(32).toString('base64')}`;
  const secrets = createSecretBox(secretsKeys);
  const arrivals = { on: () => undefined };
  const smtpAuth = { user: 'bench', pass: randomBytes(12).toString('hex') };
  const smtp = await startSmtp((id) => arrivals.on(id), smtpAuth);
  const sheets = await startSheets((id) => arrivals.on(id));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bench-out-'));
  fs.writeFileSync(path.join(dir, 'smtp.pem'), smtp.ca);
  fs.writeFileSync(path.join(dir, 'google.pem'), sheets.ca);

  const store = await connectStore(mongodbUrl);
  const now = new Date();
  const email = createEmailKind({ secrets }).validateConfig({ to: ['ops@example.com'], subject: 'Order {{event}}' });
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyFile = JSON.stringify({ type: 'service_account', client_email: 'bench@bench.iam.gserviceaccount.com', private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) });
  const sheet = createSpreadsheetKind({ secrets }).validateConfig({ spreadsheet_id: 'b'.repeat(44), service_account_key: keyFile });
  for (const [kind, cfg] of [['email', email], ['spreadsheet', sheet]]) {
    if (!cfg.ok) throw new Error(`${kind}: ${JSON.stringify(cfg.errors)}`);
    await store.targets.create({ _id: `tg_${kind}`, account_id: 'acc_bench', endpoint_id: 'ep_bench', kind, name: kind, enabled: true, config: cfg.value, flagged: null, created_at: now, updated_at: now });
  }

  const logger = createLogger({ service: 'bench', level: 'warn', stream: process.stderr });
  const broker = new BrokerConnection({ url: rabbitmqUrl, connectionName: 'bench outputs', logger, topology: { namespace, deliveryLimit: 20 } });
  await broker.start();
  const publisher = new ConfirmPublisher(broker, 10000);
  const names = brokerNames(namespace);
  const healthPort = await freePort();
  const deliverer = startProcess(path.join(ROOT, 'services/chat-deliverer/dist/main.js'), {
    DELIVERY_CHANNEL: 'outputs', RABBITMQ_URL: rabbitmqUrl, MONGODB_URL: mongodbUrl, RELAY_NAMESPACE: namespace, SSRF_ALLOW_CIDRS: '127.0.0.1/32', SECRETS_KEYS: secretsKeys,
    HEALTH_PORT: String(healthPort), PREFETCH: String(PREFETCH), RETRY_TIERS_MS: String(TIER_MS), RETRY_AFTER_MAX_MS: String(TIER_MS), LOG_LEVEL: 'warn',
    SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_USERNAME: smtpAuth.user, SMTP_PASSWORD: smtpAuth.pass, SMTP_FROM: 'relay@bench.example', SMTP_CA_FILE: path.join(dir, 'smtp.pem'),
    GOOGLE_TOKEN_URL: `${sheets.baseUrl}/token`, GOOGLE_SHEETS_URL: `${sheets.baseUrl}/v4/spreadsheets/`, GOOGLE_CA_FILE: path.join(dir, 'google.pem'),
  });
  try {
    await waitFor(`http://127.0.0.1:${healthPort}/readyz`).catch((err) => {
      throw new Error(`${err.message}\n${deliverer.output()}`);
    });
    const results = [];
    for (const kind of ['email', 'spreadsheet']) {
      const result = await measure(kind, publisher, names, arrivals).catch((err) => {
        throw new Error(`${err.message}\n${deliverer.output().slice(-2000)}`);
      });
      process.stdout.write(`${JSON.stringify(result)}\n`);
      results.push(result);
    }
    fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench-results', 'outputs.json'), `${JSON.stringify({ results, at: new Date().toISOString() }, null, 2)}\n`);
  } finally {
    if (deliverer.exitCode === null && deliverer.signalCode === null) {
      deliverer.kill('SIGTERM');
      await deliverer.exited;
    }
    const ch = await broker.openChannel();
    ch.on('error', () => undefined);
    const queues = [names.activityQueue, names.deadActivityQueue, names.payloadQueue, ...DELIVERY_CHANNELS.flatMap((c) => [names.deliveryQueue(c), names.deadDeliveryQueue(c), names.retryQueue(c, TIER_MS)])];
    for (const q of queues) await ch.deleteQueue(q).catch(() => undefined);
    for (const e of [names.deliveriesExchange, names.activityExchange, names.deadLetterExchange, names.retryExchange]) await ch.deleteExchange(e).catch(() => undefined);
    await broker.close();
    await store.connection.dropDatabase().catch(() => undefined);
    await store.close();
    await smtp.close();
    await sheets.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`bench/outputs failed: ${err.stack || err}\n`);
  process.exit(1);
});
