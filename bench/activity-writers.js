// npm run bench (activity writers): the partitioned activity log's write rate with 1, 2 and 4
// activity-writer processes, with a large log present, on the real local RabbitMQ and FerretDB.
//
//  1. preload BENCH_ACTIVITY_ROWS rows (default 1,000,000) through the log's own flush code,
//     spread over the last BENCH_ACTIVITY_HOURS hours (default 168: 7 days) and over BENCH_WRITER_ACCOUNTS accounts (default 64: every
//     partition has accounts; by account is how the log is partitioned);
//  2. for N = 1, 2, 4 writer processes: publish BENCH_WRITER_EVENTS accepted requests (a request
//     and a delivered attempt each, in batch messages as the gateway and a deliverer send them,
//     to their account's partition) ahead, then time the writers draining them (caught up = every
//     activity queue empty and every writer's relay_activity_unwritten_records 0). Prints rows/s
//     and, per writer, the records it wrote and its CPU ms per row (from /proc).
// On this machine (2 cores, shared with RabbitMQ and FerretDB + PostgreSQL) more writers cannot
// add cores; what shows that no single process bounds the log is each writer's share and its CPU
// per row (docs/benchmarks.md "Partitioned writers").
//
//   BENCH_DURATION_S=3 node bench/activity-writers.js   # short mode (test/bench/smoke.test.ts): 2,000 rows over 2 hours, 1,000 events
//   BENCH_WRITER_LOGS=/tmp/aw node bench/activity-writers.js   # each writer's log (info level) kept there
'use strict';
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const amqp = require('amqplib');
const {
  activityPartitionOf,
  brokerNames,
  encodeActivityBatch,
  timedId,
  ACTIVITY_ATTEMPT_V1,
  ACTIVITY_BATCH_V1,
  ACTIVITY_REQUEST_V1,
} = require('@relay/contracts');
const { connectStore } = require('@relay/store');
// the log's own flush code, below its surface (@relay/activity-log keeps it to itself)
const { createActivityWriter } = require('../libs/activity-log/dist/writing/flush');
const { LogCollections } = require('../libs/activity-log/dist/storage/internal');
const { deleteBrokerNamespace, freePort, metricValue, procSample, startProcess, waitFor } = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const SHORT = Number(process.env.BENCH_DURATION_S || 0) > 0 && Number(process.env.BENCH_DURATION_S) <= 5;
/** @type {(v: string | undefined, def: number, min: number, max: number) => number} */
const bounded = (v, def, min, max) => Math.max(min, Math.min(max, Number(v) || def));
const ROWS = bounded(process.env.BENCH_ACTIVITY_ROWS, SHORT ? 2000 : 1_000_000, 1000, 5_000_000);
const EVENTS = bounded(process.env.BENCH_WRITER_EVENTS, SHORT ? 1000 : 20_000, 100, 500_000);
const ACCOUNTS = bounded(process.env.BENCH_WRITER_ACCOUNTS, 64, 1, 10_000);
// the hours the preloaded rows span: each hour's rows, index pages and payloads are collections
// of their own, and creating them is most of a short run's preload (2,000 rows over 7 days: 127 s)
const HOURS = bounded(process.env.BENCH_ACTIVITY_HOURS, SHORT ? 2 : 7 * 24, 1, 30 * 24);
const WRITER_COUNTS = (process.env.BENCH_WRITER_COUNTS || '1,2,4')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n >= 1 && n <= 8);
const PER_MESSAGE = 10;
const CATCH_UP_TIMEOUT_MS = bounded(process.env.BENCH_TIMEOUT_MS, SHORT ? 120_000 : 900_000, 10_000, 3_600_000);
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR || path.join(ROOT, 'bench-results');
/** how often each writer looks at its share of the partitions (ACTIVITY_BALANCE_MS) */
const BALANCE_MS = 1000;
/** where each writer's log is kept (hand-overs, settles), or none */
const LOGS_DIR = process.env.BENCH_WRITER_LOGS || null;
const env = {
  RABBITMQ_URL: process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672',
  REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  MONGODB_BASE: process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay',
};
const namespace = `bench_aw_${randomBytes(3).toString('hex')}`;
const mongodbUrl = env.MONGODB_BASE.replace(/\/[^/]*$/, `/${namespace}`);
/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** @param {number} i */
const accountOf = (i) => `acc_bench${i % ACCOUNTS}`;

/**
 * @param {number} i
 * @param {string} receivedAt
 * @returns {[import('@relay/contracts').ActivityRequestV1, import('@relay/contracts').ActivityAttemptV1]}
 */
function eventMessages(i, receivedAt) {
  const account = accountOf(i);
  const endpoint = `ep_${account}_${i % 4}`;
  const eventId = timedId('evt', Date.parse(receivedAt), `aw${i}${randomBytes(4).toString('hex')}`);
  return [
    {
      type: ACTIVITY_REQUEST_V1,
      event_id: eventId,
      account_id: account,
      endpoint_id: endpoint,
      received_at: receivedAt,
      method: 'POST',
      source_ip: `10.1.${i % 8}.${i % 250}`,
      outcome: 'ACCEPTED',
      reason: null,
      target_count: 1,
      test: false,
    },
    {
      type: ACTIVITY_ATTEMPT_V1,
      event_id: eventId,
      delivery_id: `dlv_${eventId}_tg1`,
      account_id: account,
      endpoint_id: endpoint,
      target_id: 'tg_bench',
      target_kind: 'webhook',
      attempt: 1,
      attempted_at: receivedAt,
      state: 'delivered',
      status_code: 200,
      duration_ms: 12,
      error: null,
      next_attempt_at: null,
    },
  ];
}

/**
 * The log at size: ROWS rows over the last HOURS hours, through the writer's flush code in big batches.
 * @param {import('@relay/store').Store} store
 */
async function preload(store) {
  const writer = createActivityWriter(new LogCollections(store.connection));
  const BATCH = 2000;
  const start = Date.now() - HOURS * 3_600_000;
  const started = performance.now();
  for (let done = 0; done < ROWS; done += BATCH) {
    const events = Array.from({ length: Math.min(BATCH, ROWS - done) }, (_, k) => {
      const i = done + k;
      const [request, attempt] = eventMessages(
        i,
        new Date(start + Math.floor((i / ROWS) * HOURS * 3_600_000)).toISOString(),
      );
      return { event_id: request.event_id, request, attempts: [attempt], tokens: [], oldest_ms: 0 };
    });
    await writer.write(
      { events, folds: [] },
      { now: Date.parse(events[events.length - 1].request.received_at), flush: done / BATCH + 1 },
    );
  }
  return { rows: ROWS, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) };
}

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
 * Starts `n` writers, publishes EVENTS accepted requests ahead, times the writers draining them.
 * @param {number} n
 * @param {import('amqplib').ConfirmChannel} ch
 * @param {Record<string, string>} common
 */
async function run(n, ch, common) {
  const names = brokerNames(namespace);
  const writers = [];
  for (let k = 0; k < n; k++) {
    const port = await freePort();
    // a look a second: the partitions are shared out during the warm-up, not while measuring
    const proc = startProcess(path.join(ROOT, 'services/activity-writer/dist/main.js'), {
      ...common,
      HEALTH_PORT: String(port),
      ACTIVITY_BALANCE_MS: String(BALANCE_MS),
      ...(LOGS_DIR ? { LOG_LEVEL: 'info' } : {}),
    });
    writers.push({ port, proc });
  }
  try {
    for (const w of writers) {
      await waitFor(`http://127.0.0.1:${w.port}/readyz`).catch((err) => {
        throw new Error(`${err.message}\n${w.proc.output()}`);
      });
    }
    // warm-up: a trickle over every account until each writer writes some partitions and no
    // partition has moved for three looks (the first writer to subscribe gets them all and gives
    // its extra ones away a look at a time; a partition given away goes to the next writer in
    // line, which may give it on): the timed window measures the writers, not the sharing out
    const warmDeadline = Date.now() + (SHORT ? 20_000 : 60_000);
    let moves = -1;
    let stillSince = Date.now();
    for (let round = 0; Date.now() < warmDeadline; round++) {
      const at = new Date().toISOString();
      for (let a = 0; a < ACCOUNTS; a++) {
        const records = eventMessages(EVENTS + round * ACCOUNTS + a, at);
        ch.publish(
          names.activityExchange,
          names.activityPartitionRoutingKey(activityPartitionOf(records[0].account_id)),
          encodeActivityBatch(records),
          { persistent: true, type: ACTIVITY_BATCH_V1 },
        );
      }
      await ch.waitForConfirms();
      await sleep(250);
      const counts = await Promise.all(writers.map((w) => metric(w.port, 'relay_activity_records_written_total')));
      const moved = (await Promise.all(writers.map((w) => handoverCosts(w.port)))).reduce((sum, c) => sum + c.given, 0);
      if (moved !== moves) [moves, stillSince] = [moved, Date.now()];
      if (counts.every((c) => (c ?? 0) > 0) && round >= 8 && Date.now() - stillSince >= 3 * BALANCE_MS) break;
    }
    // the warm-up written to the end before the clock starts
    for (let settled = false; !settled && Date.now() < warmDeadline + 60_000;) {
      let ready = 0;
      for (const queue of names.activityPartitionQueues) ready += (await ch.checkQueue(queue)).messageCount;
      const unwritten = await Promise.all(writers.map((w) => metric(w.port, 'relay_activity_unwritten_records')));
      settled = ready === 0 && unwritten.every((u) => u === 0);
      if (!settled) await sleep(100);
    }
    const spread = await Promise.all(writers.map((w) => metric(w.port, 'relay_activity_records_written_total')));
    process.stderr.write(
      `  ${n} writer(s) warmed up: records written each ${spread.join('/')}, partitions given away ${moves}\n`,
    );
    const before = await Promise.all(
      writers.map(async (w) => ({
        records: (await metric(w.port, 'relay_activity_records_written_total')) ?? 0,
        cpu: procSample(/** @type {number} */ (w.proc.pid))?.cpu_s ?? 0,
        costs: await handoverCosts(w.port),
      })),
    );
    const started = performance.now();
    for (let i = 0; i < EVENTS; i += PER_MESSAGE) {
      const at = new Date().toISOString();
      const byPartition = new Map();
      for (let k = i; k < Math.min(i + PER_MESSAGE, EVENTS); k++) {
        for (const record of eventMessages(k, at)) {
          const p = activityPartitionOf(record.account_id);
          byPartition.set(p, [...(byPartition.get(p) ?? []), record]);
        }
      }
      for (const [p, records] of byPartition)
        ch.publish(names.activityExchange, names.activityPartitionRoutingKey(p), encodeActivityBatch(records), {
          persistent: true,
          type: ACTIVITY_BATCH_V1,
        });
      if (i % 500 < PER_MESSAGE) await ch.waitForConfirms();
    }
    await ch.waitForConfirms();
    const deadline = Date.now() + CATCH_UP_TIMEOUT_MS;
    let written = [];
    for (;;) {
      let ready = 0;
      for (const queue of names.activityPartitionQueues) ready += (await ch.checkQueue(queue)).messageCount;
      const unwritten = await Promise.all(writers.map((w) => metric(w.port, 'relay_activity_unwritten_records')));
      written = await Promise.all(
        writers.map(
          async (w, k) => ((await metric(w.port, 'relay_activity_records_written_total')) ?? 0) - before[k].records,
        ),
      );
      if (ready === 0 && unwritten.every((u) => u === 0) && written.reduce((a, b) => a + b, 0) >= EVENTS * 2) break;
      if (Date.now() > deadline)
        throw new Error(`${n} writers did not catch up (ready ${ready}, unwritten ${unwritten.join('/')})`);
      await sleep(50);
    }
    const seconds = (performance.now() - started) / 1000;
    const after = await Promise.all(writers.map((w) => handoverCosts(w.port)));
    const perWriter = writers.map((w, k) => {
      const cpuS = (procSample(/** @type {number} */ (w.proc.pid))?.cpu_s ?? 0) - before[k].cpu;
      // a record is a request or an attempt; a row is one request with its attempt
      const rows = written[k] / 2;
      // what partition hand-overs cost this writer while the clock ran
      const b = before[k].costs;
      const a = after[k];
      const timed = {
        given: a.given - b.given,
        taken: a.taken - b.taken,
        settle_s: Number((a.settle_s - b.settle_s).toFixed(2)),
        probes: a.probes - b.probes,
      };
      return {
        rows,
        share_pct: Math.round((100 * rows) / EVENTS),
        cpu_s: Number(cpuS.toFixed(2)),
        cpu_ms_per_row: rows > 0 ? Number(((cpuS * 1000) / rows).toFixed(3)) : null,
        handovers: timed,
      };
    });
    return {
      writers: n,
      events: EVENTS,
      seconds: Number(seconds.toFixed(2)),
      rows_per_s: Math.round(EVENTS / seconds),
      per_writer: perWriter,
    };
  } finally {
    for (const w of writers) w.proc.kill('SIGTERM');
    await Promise.all(writers.map((w) => w.proc.exited));
    if (LOGS_DIR) {
      fs.mkdirSync(LOGS_DIR, { recursive: true });
      writers.forEach((w, k) => fs.writeFileSync(path.join(LOGS_DIR, `writers-${n}-${k + 1}.log`), w.proc.output()));
    }
  }
}

/**
 * A writer's partition hand-overs so far, the settles they cost and the page counts it probed.
 * @param {number} port
 */
async function handoverCosts(port) {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
    (r) => r.text(),
    () => '',
  );
  return {
    given: metricValue(text, 'relay_activity_partition_handovers_total{direction="given"}') ?? 0,
    taken: metricValue(text, 'relay_activity_partition_handovers_total{direction="taken"}') ?? 0,
    settle_s: metricValue(text, 'relay_activity_partition_handover_settle_seconds_total') ?? 0,
    probes: metricValue(text, 'relay_activity_index_probes_total') ?? 0,
  };
}

async function main() {
  if (!SHORT) execFileSync('bash', [path.join(ROOT, 'scripts/infra.sh'), 'up'], { stdio: 'ignore' });
  const store = await connectStore(mongodbUrl);
  const conn = await amqp.connect(env.RABBITMQ_URL);
  const ch = await conn.createConfirmChannel();
  const common = {
    RABBITMQ_URL: env.RABBITMQ_URL,
    REDIS_URL: env.REDIS_URL,
    MONGODB_URL: mongodbUrl,
    RELAY_NAMESPACE: namespace,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
  };
  try {
    const loaded = await preload(store);
    process.stderr.write(`  preloaded ${JSON.stringify(loaded)}\n`);
    const runs = [];
    for (const n of WRITER_COUNTS) {
      const r = await run(n, ch, common);
      process.stderr.write(`  ${JSON.stringify(r)}\n`);
      runs.push(r);
    }
    const report = {
      bench: 'activity-writers',
      at: new Date().toISOString(),
      rows_present: ROWS,
      hours_present: HOURS,
      accounts: ACCOUNTS,
      runs,
    };
    console.log(`\nactivity writers, ${EVENTS} accepted requests over ${ACCOUNTS} accounts, ${ROWS} rows present`);
    for (const r of runs)
      console.log(
        `  ${String(r.writers).padStart(2)} writer(s) ${String(r.rows_per_s).padStart(7)} rows/s   per writer: ${r.per_writer.map((w) => `${w.share_pct}% of rows, ${w.cpu_ms_per_row} ms CPU/row, hand-overs ${w.handovers.given} given / ${w.handovers.taken} taken (settles ${w.handovers.settle_s} s), ${w.handovers.probes} probes`).join('; ')}`,
      );
    console.log(JSON.stringify(report));
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    fs.writeFileSync(path.join(RESULTS_DIR, 'activity-writers.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await conn.close().catch(() => undefined);
    await deleteBrokerNamespace(env.RABBITMQ_URL, namespace);
    if (!process.env.BENCH_KEEP_DB) await store.connection.dropDatabase().catch(() => undefined);
    await store.close();
  }
}

main().catch((err) => {
  console.error(`bench/activity-writers failed: ${err.stack || err}`);
  process.exit(1);
});
