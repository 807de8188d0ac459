// npm run bench (activity part): the activity-writer and the activity API at volume, on the real
// local RabbitMQ and FerretDB, with the services run as `npm start` runs them.
//
//  1. writer rows/s on an empty log: BENCH_WRITER_EVENTS accepted requests, each a request and a
//     delivered attempt message, published ahead to the activity queue, drained by ONE
//     activity-writer process (caught up = queue empty and relay_activity_unwritten_records 0);
//  2. preload up to BENCH_ACTIVITY_ROWS rows (default 1,000,000) through the writer's own code
//     (createActivityWriter, big batches), spread over the last 7 days, 50 endpoints, 1,000
//     source IPs, with rejections, test requests and delivery errors mixed in;
//  3. writer rows/s again, the same way as in 1, with the log at that size;
//  4. GET /v1/activity through the management-api process, once the machine is quiet again (at
//     most BENCH_QUIET_MAX_S (60) s after the writes; the wait and the load while timing are printed): p50/p95 of each filter's first page
//     (limit 50) and of a page reached by following the cursor;
//  5. one hour of steady traffic (8 days back, outside the preload): BENCH_STEADY_FLUSHES flushes
//     (default 3,600: the writer flushes about once a second) of BENCH_STEADY_ROWS rows (default
//     28: 100 rows/s) from 1,000 addresses, written through the writer's code; then the filters
//     over that hour. The preload's big flushes write few index pages; a flush a second writes
//     one per scope it touches, and every read of an hour's index costs all of its pages on
//     FerretDB (docs/architecture.md) — this part shows what that does to listing.
// Prints a table and one JSON line; writes bench-results/activity.json (BENCH_RESULTS_DIR). BENCH_NODE_ARGS: node flags
// for the writer process (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
'use strict';
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const amqp = require('amqplib');
const { activityPartitionOf, brokerNames, encodeActivityBatch, ACTIVITY_BATCH_V1 } = require('@relay/contracts');
const { connectStore, insertEndpoint } = require('@relay/store');
const { eventMessages: sharedEventMessages } = require('./activity-messages');
// the log's own flush code, below its surface (@relay/activity-log keeps it to itself)
const { createActivityWriter } = require('../libs/activity-log/dist/writing/flush');
const { LogCollections } = require('../libs/activity-log/dist/storage/internal');
const { configSpec: writerConfigSpec } = require('../services/activity-writer/dist/config');
const {
  deleteBrokerNamespace,
  freePort,
  machineCpu,
  machineWindow,
  metricValue,
  startProcess,
  timeActivityQueries,
  waitFor,
  waitQuiet,
  writeResults,
} = require('./lib');

const ROOT = path.resolve(__dirname, '..');
/** @type {(v: string | undefined, def: number, min: number, max: number) => number} */
const bounded = (v, def, min, max) => Math.max(min, Math.min(max, Number(v) || def));
// the smoke test's short mode (BENCH_DURATION_S ≤ 5, as activity-writers.js): the servers are already up
const SHORT = Number(process.env.BENCH_DURATION_S || 0) > 0 && Number(process.env.BENCH_DURATION_S) <= 5;
const ROWS = bounded(process.env.BENCH_ACTIVITY_ROWS, 1_000_000, 1000, 5_000_000);
const WRITER_EVENTS = bounded(process.env.BENCH_WRITER_EVENTS, 10_000, 100, 200_000);
const PER_MESSAGE = 10;
const QUERY_RUNS = bounded(process.env.BENCH_QUERY_RUNS, 30, 3, 500);
const STEADY_FLUSHES = bounded(process.env.BENCH_STEADY_FLUSHES, 3600, 10, 36_000);
const STEADY_ROWS = bounded(process.env.BENCH_STEADY_ROWS, 28, 1, 1000);
const CATCH_UP_TIMEOUT_MS = bounded(process.env.BENCH_TIMEOUT_MS, 600_000, 10_000, 3_600_000);
// how long to wait for a quiet machine before timing (the smoke test shortens it on its busy machine)
const QUIET_MAX_S = bounded(process.env.BENCH_QUIET_MAX_S, 60, 1, 600);
const env = {
  RABBITMQ_URL: process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672',
  REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  MONGODB_BASE: process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay',
};
const namespace = `bench_act_${randomBytes(3).toString('hex')}`;
const mongodbUrl = env.MONGODB_BASE.replace(/\/[^/]*$/, `/${namespace}`);
const ENDPOINTS = Array.from({ length: 50 }, (_, i) => `ep_bench${String(i).padStart(2, '0')}`);
/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Deterministic pseudo-random numbers, so every run preloads the same shape of log.
 * @param {number} seed
 */
function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * @param {string} accountId
 * @param {number} i
 * @param {string} receivedAt
 */
const eventMessages = (accountId, i, receivedAt) =>
  sharedEventMessages(accountId, ENDPOINTS[i % ENDPOINTS.length], i, receivedAt);

/**
 * @param {number} port
 * @param {string} name
 */
async function metric(port, name) {
  return metricValue(
    await fetch(`http://127.0.0.1:${port}/metrics`).then(
      (r) => r.text(),
      () => '',
    ),
    name,
  );
}

/**
 * Publishes `events` accepted requests (2 messages each) ahead, then times the writer draining them.
 * @param {import('amqplib').ConfirmChannel} ch
 * @param {number} healthPort
 * @param {string} accountId
 * @param {number} events
 * @param {string} label
 */
async function writerRun(ch, healthPort, accountId, events, label) {
  const names = brokerNames(namespace);
  const before = (await metric(healthPort, 'relay_activity_records_written_total')) ?? 0;
  // publishing takes a while; the clock starts with the first message, so rows/s is the writer's
  // pace while messages arrive and while it works off what queued up
  const started = performance.now();
  // as the producers send them: the gateway's request rows and a deliverer's attempts in
  // separate batch messages (PER_MESSAGE records each, what ~2,000 events/s gives them)
  for (let i = 0; i < events; i += PER_MESSAGE) {
    const pairs = Array.from({ length: Math.min(PER_MESSAGE, events - i) }, (_, k) =>
      eventMessages(accountId, i + k, new Date().toISOString()),
    );
    for (const records of [pairs.map((p) => p[0]), pairs.map((p) => p[1])]) {
      ch.publish(
        names.activityExchange,
        names.activityPartitionRoutingKey(activityPartitionOf(accountId)),
        encodeActivityBatch(records),
        { persistent: true, type: ACTIVITY_BATCH_V1 },
      );
    }
    if (i % 500 < PER_MESSAGE) await ch.waitForConfirms();
  }
  await ch.waitForConfirms();
  const deadline = Date.now() + CATCH_UP_TIMEOUT_MS;
  for (;;) {
    let ready = 0;
    for (const queue of [names.activityQueue, ...names.activityPartitionQueues])
      ready += (await ch.checkQueue(queue)).messageCount;
    const unwritten = await metric(healthPort, 'relay_activity_unwritten_records');
    const written = ((await metric(healthPort, 'relay_activity_records_written_total')) ?? 0) - before;
    if (ready === 0 && unwritten === 0 && written >= events * 2) break;
    if (Date.now() > deadline)
      throw new Error(`${label}: writer did not catch up (queue ${ready}, unwritten ${unwritten})`);
    await sleep(50);
  }
  const seconds = (performance.now() - started) / 1000;
  return { label, events, seconds: Number(seconds.toFixed(2)), rows_per_s: Math.round(events / seconds) };
}

/**
 * @param {import('@relay/store').Store} store
 * @param {string} accountId
 * @param {number} target
 */
async function preload(store, accountId, target) {
  const writer = createActivityWriter(new LogCollections(store.connection));
  const random = rng(42);
  const span = 7 * 86_400_000;
  // ends an hour ago: the writer runs write into the current hour, which the preload leaves empty
  const start = Date.now() - span - 3_600_000;
  const started = performance.now();
  const BATCH = 2000;
  const reasons = [
    'connect ETIMEDOUT 10.9.8.7:443',
    'HTTP 500 Internal Server Error',
    'HTTP 410 Gone',
    'socket hang up',
  ];
  for (let done = 0; done < target;) {
    /** @type {import('../libs/activity-log/dist/writing/hold').EventGroup<unknown>[]} */
    const events = [];
    const n = Math.min(BATCH, target - done);
    for (let k = 0; k < n; k++) {
      const i = done + k;
      // rows arrive in time order, as they do in production
      const receivedAt = new Date(start + Math.floor((i / target) * span)).toISOString();
      const [request, attempt] = eventMessages(accountId, i, receivedAt);
      request.source_ip = `198.51.${Math.floor(random() * 4)}.${Math.floor(random() * 250)}`;
      const r = random();
      if (r < 0.05) Object.assign(request, { outcome: 'AUTH_FAILED', reason: 'invalid bearer token', target_count: 0 });
      else if (r < 0.06) Object.assign(request, { test: true });
      /** @type {import('@relay/contracts').ActivityAttemptV1[]} */
      const attempts =
        request.target_count === 0
          ? []
          : [
              r > 0.98
                ? { ...attempt, state: 'failed', status_code: null, error: reasons[i % reasons.length] }
                : attempt,
            ];
      events.push({ event_id: request.event_id, request, attempts, tokens: [], oldest_ms: 0 });
    }
    // the clock of a writer that keeps up: at the batch's last arrival (it records each hour's
    // page counts once it has left the hour, as in production)
    await writer.write(
      { events, folds: [] },
      {
        now: Date.parse(
          /** @type {import('@relay/contracts').ActivityRequestV1} */ (events[events.length - 1].request).received_at,
        ),
        flush: done / BATCH + 1,
      },
    );
    done += n;
    if (done % 100_000 < BATCH)
      process.stderr.write(
        `  preloaded ${done} rows (${Math.round(done / ((performance.now() - started) / 1000))} rows/s)\n`,
      );
  }
  return { rows: target, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) };
}

/**
 * @param {number} apiPort
 * @param {string} apiKey
 */
async function timeQueries(apiPort, apiKey) {
  return timeFilters(apiPort, apiKey, defaultFilters(), QUERY_RUNS);
}

/**
 * Times the filters once the machine is quiet: right after a burst of writes PostgreSQL's
 * autovacuum (and FerretDB's) still works through it, and the timings would measure that
 * instead. The wait and the machine's load while timing are reported beside the figures.
 * @template T
 * @param {() => Promise<T>} time
 */
async function onQuietMachine(time) {
  const quiet = await waitQuiet(QUIET_MAX_S);
  const m0 = machineCpu();
  const results = await time();
  return {
    results,
    quiet_wait_s: quiet.waited_s,
    quiet_reached: quiet.reached,
    machine_while_timing: machineWindow(m0, machineCpu()),
  };
}

function defaultFilters() {
  const now = Date.now();
  const iso = (/** @type {number} */ ms) => encodeURIComponent(new Date(ms).toISOString());
  /** @type {[string, string][]} */
  const filters = [
    ['all (cross-endpoint)', 'status=all'],
    ['endpoint', `endpoint_id=${ENDPOINTS[7]}`],
    ['date window (1 h, 3 days ago)', `from=${iso(now - 3 * 86_400_000)}&to=${iso(now - 3 * 86_400_000 + 3_600_000)}`],
    ['completed', 'status=completed'],
    ['pending', 'status=pending'],
    ['errors', 'status=errors'],
    ['test', 'status=test'],
    ['source IP (1 of 1,000)', 'source_ip=198.51.2.77'],
    ['source IP, 1 h window', `source_ip=198.51.2.77&from=${iso(now - 2 * 3_600_000)}&to=${iso(now - 3_600_000)}`],
    ['error text (24 h)', 'error=timedout'],
    ['endpoint + errors', `endpoint_id=${ENDPOINTS[3]}&status=errors`],
  ];
  return filters;
}

/**
 * p50/p95 of `runs` calls per filter; every third follows the previous page's cursor.
 * @param {number} apiPort
 * @param {string} apiKey
 * @param {[string, string][]} filters
 * @param {number} runs
 */
async function timeFilters(apiPort, apiKey, filters, runs) {
  return (await timeActivityQueries(apiPort, apiKey, filters, runs)).map(({ name, mean_rows, ...t }) => ({
    filter: name,
    ...t,
    mean_rows_per_page: mean_rows,
  }));
}

/**
 * Step 5: one hour written as steady traffic writes it, a small flush at a time; then its filters.
 * @param {import('@relay/store').Store} store
 * @param {string} accountId
 * @param {number} apiPort
 * @param {string} apiKey
 */
async function steadyHour(store, accountId, apiPort, apiKey) {
  // as the service runs it: sparse scopes' index entries held for ACTIVITY_INDEX_WAIT_MS (its
  // default unless set), timed by the rows' own clock, a flush every 3,600 s / flushes
  const indexWaitMs = Number(process.env.ACTIVITY_INDEX_WAIT_MS ?? writerConfigSpec.indexWaitMs.default);
  const indexMaxWaitMs = Number(process.env.ACTIVITY_INDEX_MAX_WAIT_MS ?? writerConfigSpec.indexMaxWaitMs.default);
  const writer = createActivityWriter(new LogCollections(store.connection), { indexWaitMs, indexMaxWaitMs });
  const random = rng(7);
  const hourStart = Math.floor((Date.now() - 8 * 86_400_000) / 3_600_000) * 3_600_000;
  const total = STEADY_FLUSHES * STEADY_ROWS;
  const started = performance.now();
  for (let f = 0; f < STEADY_FLUSHES; f++) {
    /** @type {import('../libs/activity-log/dist/writing/hold').EventGroup<unknown>[]} */
    const events = [];
    for (let k = 0; k < STEADY_ROWS; k++) {
      const i = f * STEADY_ROWS + k;
      const [request, attempt] = eventMessages(
        accountId,
        i,
        new Date(hourStart + Math.floor((i / total) * 3_600_000)).toISOString(),
      );
      request.source_ip = `198.51.${Math.floor(random() * 4)}.${Math.floor(random() * 250)}`;
      const r = random();
      if (r < 0.05) Object.assign(request, { outcome: 'AUTH_FAILED', reason: 'invalid bearer token', target_count: 0 });
      /** @type {import('@relay/contracts').ActivityAttemptV1[]} */
      const attempts =
        request.target_count === 0
          ? []
          : [r > 0.98 ? { ...attempt, state: 'failed', status_code: null, error: 'socket hang up' } : attempt];
      events.push({ event_id: request.event_id, request, attempts, tokens: [], oldest_ms: 0 });
    }
    await writer.write({ events, folds: [] }, { now: hourStart + f * (3_600_000 / STEADY_FLUSHES), flush: f });
  }
  // the running writer's flushes a few minutes into the next hour: what it still held is written
  // and the hour's page counts go into the day directory (IndexWriter.recordCounts)
  await writer.writeHeld({ now: hourStart + 3_600_000 + indexMaxWaitMs + 120_000, flush: STEADY_FLUSHES });
  const seconds = (performance.now() - started) / 1000;
  const iso = (/** @type {number} */ ms) => encodeURIComponent(new Date(ms).toISOString());
  const hour = `from=${iso(hourStart)}&to=${iso(hourStart + 3_600_000)}`;
  /** @type {[string, string][]} */
  const filters = [
    ['all', `status=all&${hour}`],
    ['endpoint', `endpoint_id=${ENDPOINTS[7]}&${hour}`],
    ['errors', `status=errors&${hour}`],
    ['endpoint + errors', `endpoint_id=${ENDPOINTS[3]}&status=errors&${hour}`],
    ['source IP', `source_ip=198.51.2.77&${hour}`],
  ];
  const runs = Math.max(3, Math.round(QUERY_RUNS / 3));
  /** @type {Record<string, number>} */
  const counts = {};
  const suffix = new Date(hourStart).toISOString().slice(0, 13).replace(/[-T]/g, '');
  const count = (/** @type {string} */ kind) =>
    /** @type {import('mongodb').Db} */ (store.connection.db)
      .collection(`activity_${kind}_${suffix}`)
      .estimatedDocumentCount();
  counts.ix = await count('ix'); // every scope's pages of the hour (keys.ts)
  const timed = await onQuietMachine(() => timeFilters(apiPort, apiKey, filters, runs));
  return {
    flushes: STEADY_FLUSHES,
    rows_per_flush: STEADY_ROWS,
    index_wait_ms: indexWaitMs,
    index_max_wait_ms: indexMaxWaitMs,
    write_seconds: Number(seconds.toFixed(1)),
    index_documents: counts,
    runs,
    queries: timed.results,
    quiet_wait_s: timed.quiet_wait_s,
    quiet_reached: timed.quiet_reached,
    machine_while_timing: timed.machine_while_timing,
  };
}

async function main() {
  if (!SHORT) execFileSync('bash', [path.join(ROOT, 'scripts/infra.sh'), 'up'], { stdio: 'ignore' });
  const secretsKeys = `bench:${randomBytes(32).toString('base64')}`;
  const boot = JSON.parse(
    execFileSync(
      process.execPath,
      [path.join(ROOT, 'services/management-api/dist/bootstrap.js'), '--account', 'bench'],
      { env: { ...process.env, MONGODB_URL: mongodbUrl, SECRETS_KEYS: secretsKeys } },
    ).toString(),
  );
  const store = await connectStore(mongodbUrl);
  // the endpoint filter lists only endpoints of the caller's account
  await Promise.all(
    ENDPOINTS.map((id) =>
      insertEndpoint(store, id, boot.account_id, {
        name: id,
        enabled: true,
        paused: false,
        methods: ['POST'],
        payload_format: 'json',
        inbound_auth: { type: 'NONE' },
      }),
    ),
  );
  const [healthPort, apiPort] = [await freePort(), await freePort()];
  const common = {
    RABBITMQ_URL: env.RABBITMQ_URL,
    REDIS_URL: env.REDIS_URL,
    MONGODB_URL: mongodbUrl,
    RELAY_NAMESPACE: namespace,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  };
  const writer = startProcess(
    path.join(ROOT, 'services/activity-writer/dist/main.js'),
    { ...common, HEALTH_PORT: String(healthPort) },
    (process.env.BENCH_NODE_ARGS || '').split(' ').filter(Boolean),
  );
  const api = startProcess(path.join(ROOT, 'services/management-api/dist/main.js'), {
    ...common,
    PORT: String(apiPort),
    SECRETS_KEYS: secretsKeys,
  });
  const conn = await amqp.connect(env.RABBITMQ_URL);
  const ch = await conn.createConfirmChannel();
  try {
    await waitFor(`http://127.0.0.1:${healthPort}/readyz`).catch((err) => {
      throw new Error(`${err.message}\n${writer.output()}`);
    });
    await waitFor(`http://127.0.0.1:${apiPort}/readyz`);
    const empty = await writerRun(ch, healthPort, boot.account_id, WRITER_EVENTS, `writer, log empty`);
    process.stderr.write(`  ${JSON.stringify(empty)}\n`);
    const loaded = await preload(store, boot.account_id, ROWS);
    const full = await writerRun(ch, healthPort, boot.account_id, WRITER_EVENTS, `writer, ${ROWS} rows present`);
    process.stderr.write(`  ${JSON.stringify(full)}\n`);
    const timed = await onQuietMachine(() => timeQueries(apiPort, boot.api_key));
    const queries = timed.results;
    const steady = await steadyHour(store, boot.account_id, apiPort, boot.api_key);
    const report = {
      at: new Date().toISOString(),
      rows_present: ROWS + 2 * WRITER_EVENTS,
      preload: loaded,
      writer: { empty, full, ratio_full_to_empty: Number((full.rows_per_s / empty.rows_per_s).toFixed(3)) },
      queries,
      queries_machine: {
        quiet_wait_s: timed.quiet_wait_s,
        quiet_reached: timed.quiet_reached,
        while_timing: timed.machine_while_timing,
      },
      steady_hour: steady,
    };
    console.log(
      `\nactivity-writer (one process), ${WRITER_EVENTS} accepted requests (request + attempt messages) each run`,
    );
    for (const r of [empty, full]) console.log(`  ${r.label.padEnd(32)} ${String(r.rows_per_s).padStart(7)} rows/s`);
    console.log(`  ratio at ${ROWS} rows / empty: ${report.writer.ratio_full_to_empty}`);
    console.log(
      `\nGET /v1/activity (limit 50) with ${report.rows_present} rows, ${QUERY_RUNS} runs each (after ${timed.quiet_wait_s} s for a quiet machine${timed.quiet_reached ? '' : ', NOT reached'}; the machine ${timed.machine_while_timing.busy_pct}% busy while timing, ${timed.machine_while_timing.steal_pct}% stolen)`,
    );
    for (const q of queries)
      console.log(
        `  ${q.filter.padEnd(32)} p50 ${String(q.p50_ms).padStart(7)} ms   p95 ${String(q.p95_ms).padStart(7)} ms   rows/page ${q.mean_rows_per_page}`,
      );
    console.log(
      `\none hour of steady traffic: ${steady.flushes} flushes of ${steady.rows_per_flush} rows (written in ${steady.write_seconds} s); index documents that hour: ${JSON.stringify(steady.index_documents)}; ${steady.runs} runs each (after ${steady.quiet_wait_s} s for a quiet machine${steady.quiet_reached ? '' : ', NOT reached'}; ${steady.machine_while_timing.busy_pct}% busy while timing)`,
    );
    for (const q of steady.queries)
      console.log(
        `  ${q.filter.padEnd(32)} p50 ${String(q.p50_ms).padStart(7)} ms   p95 ${String(q.p95_ms).padStart(7)} ms   rows/page ${q.mean_rows_per_page}`,
      );
    console.log(JSON.stringify(report));
    writeResults('activity', report);
  } finally {
    for (const p of [writer, api]) p.kill('SIGTERM');
    await Promise.all([writer.exited, api.exited]);
    await conn.close().catch(() => undefined);
    await deleteBrokerNamespace(env.RABBITMQ_URL, namespace);
    if (!process.env.BENCH_KEEP_DB) await store.connection.dropDatabase().catch(() => undefined);
    await store.close();
  }
}

main().catch((err) => {
  console.error(`bench/activity failed: ${err.stack || err}`);
  process.exit(1);
});
