// npm run bench (part 2): deliveries/s of ONE webhook-deliverer process against a local receiver,
// on the real local RabbitMQ and FerretDB. Closed loop: at most BENCH_WINDOW deliveries are
// outstanding (published, not yet received), so the latency (publish → receiver) is that of a
// busy deliverer, not of a backlog the publisher built up. Then the same against a target with
// (non-binding) per-target limits, so the gate's cost shows beside the plain case. Prints one
// JSON line {"deliveries_per_s","p50_ms","p99_ms","n",…,"limited_target":{…,"vs_plain"}};
// writes bench-results/deliverer.json.
'use strict';
const { randomBytes } = require('node:crypto');
const http = require('node:http');
const path = require('node:path');
const { Redis } = require('ioredis');
const { BrokerConnection, ConfirmPublisher, DeliveryPublisher } = require('@relay/broker');
const { brokerNames, DELIVERY_V1 } = require('@relay/contracts');
const { createLogger } = require('@relay/logging');
const { createSecretBox } = require('@relay/secrets');
const { connectStore, insertTarget } = require('@relay/store');
const { createWebhookKind } = require('@relay/targets');
const { cleanup, closedLoop, settingsOf } = require('./delivery-loop');
const { freePort, portOf, startProcess, waitFor, writeResults } = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const S = settingsOf('BENCH_DELIVERIES', 20000, 'bench_dlv');

/**
 * The receiver answers 200 at once and notes when each delivery (by X-Relay-Delivery-Id) arrived.
 * @param {(deliveryId: string, attempt: number) => void} onDelivery
 * @returns {Promise<import('node:http').Server>}
 */
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

/**
 * The same target again with limits that never bind (10,000 a second, 1,000 in flight; the
 * loop keeps at most BENCH_WINDOW outstanding): what the gate costs a delivery — one Redis
 * script call before the attempt and the lease given back in a batch (docs/delivery-limits.md) —
 * measured beside the plain target in the same run.
 */
/** @type {{ rate: number; per: 'second'; max_in_flight: number }} */
const LIMITS = { rate: 10000, per: 'second', max_in_flight: 1000 };

/**
 * @param {number} i
 * @param {string} targetId
 * @returns {import('@relay/contracts').DeliveryMessageV1}
 */
function delivery(i, targetId = 'tg_bench') {
  return {
    type: DELIVERY_V1,
    event_id: `evt_b${i}_${targetId}`,
    delivery_id: `dlv_b${i}_${targetId}`,
    attempt: 1,
    account_id: 'acc_bench',
    endpoint_id: 'ep_bench',
    target_id: targetId,
    target_kind: 'webhook',
    received_at: new Date().toISOString(),
    request: { method: 'POST', source_ip: '127.0.0.1', headers: {}, query: '' },
    payload: { content_type: 'application/json', body_base64: S.body.toString('base64') },
  };
}

async function main() {
  const secretsKeys = `bench:${randomBytes(32).toString('base64')}`;
  const plain = closedLoop(S, 'webhook');
  const limited = closedLoop(S, 'webhook, limited target');
  let loop = plain;
  let duplicates = 0;
  // a redelivery (attempt > 1) or an event already counted is a duplicate
  const receiver = await startReceiver((id, attempt) => {
    if (attempt !== 1 || !loop.arrived(id)) duplicates += 1;
  });
  const store = await connectStore(S.mongodbUrl);
  const kind = createWebhookKind({ secrets: createSecretBox(secretsKeys) });
  const cfg = kind.validateConfig({ url: `http://127.0.0.1:${portOf(receiver)}/hook`, enforce_https: false });
  if (!cfg.ok) throw new Error(`webhook config refused: ${JSON.stringify(cfg.errors)}`);
  await insertTarget(store, 'tg_bench', 'acc_bench', 'ep_bench', {
    kind: 'webhook',
    name: 'sink',
    enabled: true,
    config: { ...cfg.value },
  });
  await insertTarget(store, 'tg_bench_limited', 'acc_bench', 'ep_bench', {
    kind: 'webhook',
    name: 'limited sink',
    enabled: true,
    config: { ...cfg.value },
    limits: LIMITS,
  });

  const logger = createLogger({ service: 'bench', level: 'warn', stream: process.stderr });
  const broker = new BrokerConnection({
    url: S.rabbitmqUrl,
    connectionName: 'bench deliverer',
    logger,
    topology: { namespace: S.namespace, deliveryLimit: 20 },
  });
  await broker.start();
  // the deliveries go out as the gateway sends them: through the one delivery publisher
  const publisher = new DeliveryPublisher(new ConfirmPublisher(broker, 10000), S.namespace);
  const names = brokerNames(S.namespace);

  const healthPort = await freePort();
  const deliverer = startProcess(path.join(ROOT, 'services/deliverer/dist/main.js'), {
    DELIVERY_CHANNEL: 'webhook',
    RABBITMQ_URL: S.rabbitmqUrl,
    MONGODB_URL: S.mongodbUrl,
    RELAY_NAMESPACE: S.namespace,
    SSRF_ALLOW_CIDRS: '127.0.0.0/8',
    SECRETS_KEYS: secretsKeys,
    HEALTH_PORT: String(healthPort),
    PREFETCH: String(S.prefetch),
    RETRY_TIERS_MS: String(S.tierMs),
    RETRY_AFTER_MAX_MS: String(S.tierMs),
    LOG_LEVEL: 'info',
  });
  try {
    await waitFor(`http://127.0.0.1:${healthPort}/readyz`).catch((err) => {
      throw new Error(`${err.message}\n${deliverer.output()}`);
    });
    /** @param {string} targetId */
    const send = (targetId) => (/** @type {number} */ i) => {
      const d = delivery(i, targetId);
      return { id: d.delivery_id, published: publisher.publish([{ message: d, channel: 'webhook' }]) };
    };
    const plainResult = await plain.run(send('tg_bench'));
    loop = limited;
    const limitedResult = await limited.run(send('tg_bench_limited'));
    const result = {
      ...plainResult,
      limited_target: {
        limits: LIMITS,
        ...limitedResult,
        vs_plain: Number((limitedResult.deliveries_per_s / plainResult.deliveries_per_s).toFixed(3)),
      },
      duplicates,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    writeResults('deliverer', { ...result, at: new Date().toISOString() });
  } finally {
    if (deliverer.exitCode === null && deliverer.signalCode === null) {
      const exited = new Promise((r) => deliverer.once('exit', r));
      deliverer.kill('SIGTERM');
      await exited;
    }
    await cleanup(S, broker, store, names);
    // the limited target's gate keys (docs/delivery-limits.md "Keys")
    const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
    const keys = await redis.keys(`${S.namespace}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    receiver.closeAllConnections();
    receiver.close();
  }
}

main().catch((err) => {
  process.stderr.write(`bench/deliverer failed: ${err.stack || err}\n`);
  process.exit(1);
});
