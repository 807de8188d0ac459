// What the one-deliverer benches (bench/deliverer.js for webhooks, bench/outputs.js for email and
// spreadsheet) share: their settings, the closed loop that publishes deliveries with at most
// WINDOW outstanding and times each from publish to arrival, and the clean-up of their namespace.
'use strict';
const { randomBytes } = require('node:crypto');
const { DELIVERY_CHANNELS } = require('@relay/contracts');
const { percentile } = require('./lib');

/** @type {(v: string | undefined, def: number, max: number) => number} */
const bounded = (v, def, max) => Math.max(1, Math.min(max, Number(v) || def));

/**
 * The settings of a delivery bench: `countVar` names its delivery count's variable.
 * @param {string} countVar
 * @param {number} defaultCount
 * @param {string} prefix
 */
function settingsOf(countVar, defaultCount, prefix) {
  const n = bounded(process.env[countVar], defaultCount, 100000);
  const namespace = `${prefix}_${randomBytes(4).toString('hex')}`;
  const mongodbUrl = new URL(process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay');
  mongodbUrl.pathname = `/${namespace}`;
  return {
    n,
    warmup: Math.min(500, Math.floor(n / 10)),
    window: bounded(process.env.BENCH_WINDOW, 64, 5000),
    prefetch: bounded(process.env.BENCH_PREFETCH, 32, 1000),
    timeoutMs: bounded(process.env.BENCH_TIMEOUT_MS, 300000, 1800000),
    // one small retry tier: nothing retries here, and the clean-up knows every queue
    tierMs: 1000,
    rabbitmqUrl: process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672',
    namespace,
    mongodbUrl: mongodbUrl.toString(),
    // about 1 KB of JSON
    body: Buffer.from(JSON.stringify({ event: 'order.created', data: { note: 'y'.repeat(940) } })),
  };
}

/**
 * A closed loop over `s.n` deliveries. The receiver calls `arrived(deliveryId)` for each arrival
 * (false for one the loop did not send, or sent and already counted); `run(send)` calls `send(i)`
 * for the i-th delivery, which publishes it and returns { id, published }, and resolves with the
 * figures once all arrived, timing those after the warm-up.
 * @param {Settings} s
 * @param {string} label
 */
function closedLoop(s, label) {
  /** @type {Map<string, number>} */
  const sentAt = new Map();
  /** @type {number[]} */
  const latencies = [];
  let received = 0;
  /** @type {() => void} */
  let wake = () => undefined;
  return {
    /** @param {string} id */
    arrived(id) {
      const t0 = sentAt.get(id);
      if (t0 === undefined) return false;
      sentAt.delete(id);
      if (received >= s.warmup) latencies.push(performance.now() - t0);
      received += 1;
      wake();
      return true;
    },
    /** @param {(i: number) => { id: string; published: Promise<void> }} send */
    async run(send) {
      const deadline = Date.now() + s.timeoutMs;
      let published = 0;
      let measuredFrom = 0;
      /** @type {unknown} */
      let failure = null;
      while (received < s.n) {
        if (failure) throw failure;
        if (Date.now() > deadline) throw new Error(`${label}: timed out, ${received} of ${s.n} deliveries arrived`);
        // arrivals can come several at a time (a stream read, a consumer batch): past the warm-up, not at it
        if (received >= s.warmup && measuredFrom === 0) measuredFrom = performance.now();
        if (published < s.n && published - received < s.window) {
          const startedAt = performance.now();
          const { id, published: confirmed } = send(published++);
          sentAt.set(id, startedAt);
          confirmed.catch((err) => {
            failure = err;
            wake();
          });
          continue;
        }
        await new Promise((resolve) => {
          wake = () => resolve(undefined);
          setTimeout(resolve, 1000).unref();
        });
      }
      const seconds = (performance.now() - measuredFrom) / 1000;
      latencies.sort((a, b) => a - b);
      return {
        deliveries_per_s: Math.round((s.n - s.warmup) / seconds),
        p50_ms: Number((percentile(latencies, 50) ?? 0).toFixed(1)),
        p99_ms: Number((percentile(latencies, 99) ?? 0).toFixed(1)),
        n: s.n - s.warmup,
        warmup: s.warmup,
        window: s.window,
        prefetch: s.prefetch,
      };
    },
  };
}

/**
 * Deletes the bench's queues and exchanges, closes the broker, drops its database.
 * @param {Settings} s
 * @param {import('@relay/broker').BrokerConnection} broker
 * @param {import('@relay/store').Store} store
 * @param {import('@relay/contracts').BrokerNames} names
 */
async function cleanup(s, broker, store, names) {
  const ch = await broker.openChannel();
  ch.on('error', () => undefined);
  const queues = [
    names.activityQueue,
    names.deadActivityQueue,
    names.payloadQueue,
    names.accountEventQueue,
    ...DELIVERY_CHANNELS.flatMap((c) => [
      names.deliveryQueue(c),
      names.deadDeliveryQueue(c),
      names.retryQueue(c, s.tierMs),
    ]),
  ];
  for (const q of queues) await ch.deleteQueue(q).catch(() => undefined);
  for (const e of [names.deliveriesExchange, names.activityExchange, names.deadLetterExchange, names.retryExchange])
    await ch.deleteExchange(e).catch(() => undefined);
  await broker.close();
  await store.connection.dropDatabase().catch(() => undefined);
  await store.close();
}

/** @typedef {ReturnType<typeof settingsOf>} Settings */

module.exports = { settingsOf, closedLoop, cleanup };
