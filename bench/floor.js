// The architecture's floor on this machine: what an ingest-and-relay pipeline built from the
// libraries the architecture fixes reaches when it does nothing else — express answering 202 once
// a quorum queue confirmed the body, a consumer POSTing it with got to a local receiver
// (bench/floor-services.js) — under bench/system.js's load and beside the same bare express
// baseline, measured before and after. Relay does strictly more per event (endpoint lookup,
// authentication, the Redis rate limit and quota, activity rows and the stored payload), so its
// ratio cannot exceed this one on the same machine: it tells how much of the whole-system
// target the fixed parts leave to Relay's own work.
//
// With FLOOR_LOG=1 it adds the least of what the spec asks beyond relaying (bench/floor-services.js):
// one Redis call per request, a request record and an outcome record per event through the broker
// to an activity writer inserting them into the store. Relay does more than that too (endpoint,
// authentication, one merged row, status, index, aggregation), so that ratio is again a ceiling.
//
//   node bench/floor.js          (BENCH_DURATION_S, BENCH_WARMUP_S, BENCH_CONNECTIONS as system.js)
//   FLOOR_LOG=1 node bench/floor.js    (also REDIS_URL, MONGODB_URL: the store's database is a new one, dropped after)
'use strict';
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const amqp = require('amqplib');
const { makeBody, requestId, startReceiver, waitDelivered } = require('./receiver');
const {
  envNumber: num,
  infraPid,
  infraPids,
  freePort,
  startProcess,
  stopProcess,
  waitFor,
  loadTracked,
  sampleOf,
  machineCpu,
  machineWindow,
  waitQuiet,
} = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const DURATION_S = num(process.env.BENCH_DURATION_S, 20);
const WARMUP_S = num(process.env.BENCH_WARMUP_S, DURATION_S <= 5 ? 1 : 3);
const CONNECTIONS = num(process.env.BENCH_CONNECTIONS, 64);
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR || path.join(ROOT, 'bench-results');
const RABBITMQ_URL = process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672';
const DELIVERY_TIMEOUT_MS = 60000;
const LOG = process.env.FLOOR_LOG === '1';

const progress = (/** @type {string} */ msg) => process.stderr.write(`floor bench: ${msg}\n`);

/**
 * The port a floor process (or bare express) printed once it listens.
 * @param {import('./lib').BenchProcess} child
 */
async function listening(child) {
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    const m = /listening (\d+)/.exec(child.output());
    if (m) return Number(m[1]);
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`process not listening:\n${child.output().slice(-2000)}`);
}

/** CPU seconds of a pid, or summed over a function's pids (the store: FerretDB and PostgreSQL's processes). */
const cpuSeconds = (/** @type {number | (() => number[])} */ pid) => sampleOf(pid)?.cpu_s ?? 0;

/** @param {Record<string, number | (() => number[])>} pids */
function cpuOf(pids) {
  const t0 = Date.now();
  const before = Object.fromEntries(Object.entries(pids).map(([n, pid]) => [n, cpuSeconds(pid)]));
  return () =>
    Object.fromEntries(
      Object.entries(pids).map(([n, pid]) => [
        n,
        Math.round(((cpuSeconds(pid) - (before[n] ?? 0)) / ((Date.now() - t0) / 1000)) * 100),
      ]),
    );
}

/**
 * Records the floor's writer has inserted (its readiness server answers the count).
 * @param {number} port
 * @returns {Promise<{ written: number; documents: number }>}
 */
async function writerCounts(port) {
  const res = await fetch(`http://127.0.0.1:${port}/`);
  return /** @type {Promise<{ written: number; documents: number }>} */ (res.json());
}

/**
 * Seconds from `since` until the writer has inserted `expected` records, or null after `timeoutMs`.
 * @param {number} port
 * @param {number} expected
 * @param {number} since
 * @param {number} timeoutMs
 */
async function waitWritten(port, expected, since, timeoutMs) {
  while (Date.now() < since + timeoutMs) {
    if ((await writerCounts(port)).written >= expected) return Number(((Date.now() - since) / 1000).toFixed(2));
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

async function main() {
  const queue = `bench_floor_${randomBytes(4).toString('hex')}`;
  const mongo = new URL(process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay');
  mongo.pathname = `/${queue}`;
  /** @type {import('./lib').BenchProcess[]} */
  const procs = [];
  /** @type {import('./receiver').Receiver | null} */
  let receiver = null;
  try {
    receiver = await startReceiver();
    const bare = startProcess(path.join(__dirname, 'bare-express.js'), { PORT: String(await freePort()) });
    procs.push(bare);
    const env = { RABBITMQ_URL, FLOOR_QUEUE: queue, FLOOR_LOG: LOG ? '1' : '0', MONGODB_URL: mongo.href };
    const writer = LOG
      ? startProcess(path.join(__dirname, 'floor-services.js'), {
          ...env,
          FLOOR_ROLE: 'writer',
          PORT: String(await freePort()),
        })
      : null;
    let writerPort = 0;
    if (writer) {
      procs.push(writer);
      writerPort = await listening(writer);
    }
    const gateway = startProcess(path.join(__dirname, 'floor-services.js'), {
      ...env,
      FLOOR_ROLE: 'gateway',
      PORT: String(await freePort()),
    });
    procs.push(gateway);
    const gatewayPort = await listening(gateway);
    const deliverer = startProcess(path.join(__dirname, 'floor-services.js'), {
      ...env,
      FLOOR_ROLE: 'deliverer',
      PORT: String(await freePort()),
      FLOOR_TARGET_URL: `http://127.0.0.1:${receiver.port}/hook`,
    });
    procs.push(deliverer);
    await listening(deliverer);
    const barePort = await listening(bare);
    await waitFor(`http://127.0.0.1:${barePort}/nothing`);

    const headers = { 'content-type': 'application/json' };
    /** @type {Set<string>} */
    const accepted = new Set();
    /** @type {(url: string, phase: string, durationS: number, track: boolean) => ReturnType<typeof loadTracked>} */
    const loadPhase = (url, phase, durationS, track) =>
      loadTracked(url, {
        connections: CONNECTIONS,
        durationS,
        headers,
        makeBody: (seq) => makeBody(requestId(phase, seq)),
        onAccepted: track ? (seq) => accepted.add(requestId(phase, seq)) : () => undefined,
      });
    const measureBare = async (/** @type {string} */ when) => {
      progress(`bare express (${when}) ${WARMUP_S} s warm-up + ${DURATION_S} s`);
      await loadPhase(`http://127.0.0.1:${barePort}/relay/x`, 'b', WARMUP_S, false);
      const m0 = machineCpu();
      const r = await loadPhase(`http://127.0.0.1:${barePort}/relay/x`, 'b', DURATION_S, false);
      return { req_per_s: r.accepted_per_s, p50_ms: r.p50_ms, p99_ms: r.p99_ms, ...machineWindow(m0, machineCpu()) };
    };

    const bareBefore = await measureBare('before');
    const url = `http://127.0.0.1:${gatewayPort}/relay/x`;
    progress(`floor ${WARMUP_S} s warm-up`);
    const warm = await loadPhase(url, 'w', WARMUP_S, true);
    await waitDelivered(receiver, accepted, warm.ended_at + DELIVERY_TIMEOUT_MS);
    if (LOG) await waitWritten(writerPort, 2 * accepted.size, Date.now(), DELIVERY_TIMEOUT_MS);
    progress(`floor ${DURATION_S} s measured load`);
    /** @type {Record<string, number | (() => number[])>} */
    const pids = {
      gateway: gateway.pid ?? 0,
      deliverer: deliverer.pid ?? 0,
      receiver: receiver.child.pid ?? 0,
      'load generator': process.pid,
    };
    if (writer) Object.assign(pids, { writer: writer.pid ?? 0 }, infraPids());
    else {
      const rabbit = infraPid('rabbitmq/rabbitmq.pid');
      if (rabbit) pids.rabbitmq = rabbit;
    }
    const cpu = cpuOf(pids);
    const m0 = machineCpu();
    const run = await loadPhase(url, 'm', DURATION_S, true);
    const during = { processes: cpu(), ...machineWindow(m0, machineCpu()) };
    const lost = await waitDelivered(receiver, accepted, run.ended_at + DELIVERY_TIMEOUT_MS);
    // the activity lag as system.js defines it: from the load's end until every record is written
    const logLagS = LOG ? await waitWritten(writerPort, 2 * accepted.size, run.ended_at, DELIVERY_TIMEOUT_MS) : null;
    const measured = receiver.order.filter((a) => a.id.startsWith('m'));
    const lastAt = measured[measured.length - 1]?.at ?? null;
    const deliveredPerS = lastAt ? Math.round(measured.length / ((lastAt - run.started_at) / 1000)) : 0;
    await waitQuiet(20);
    const bareAfter = await measureBare('after');
    const bareMean = Math.round((bareBefore.req_per_s + bareAfter.req_per_s) / 2);
    const report = {
      bench: LOG ? 'floor-with-log' : 'floor',
      activity_lag_s: logLagS,
      activity_documents: LOG ? (await writerCounts(writerPort)).documents : null,
      at: new Date().toISOString(),
      accepted_per_s: run.accepted_per_s,
      delivered_per_s: deliveredPerS,
      bare_express_req_per_s: bareMean,
      ratio: bareMean ? Number((deliveredPerS / bareMean).toFixed(3)) : null,
      p50_ms: run.p50_ms,
      p99_ms: run.p99_ms,
      non_2xx: run.non_2xx,
      lost,
      duplicates: receiver.duplicates,
      bare_express: { before: bareBefore, after: bareAfter },
      cpu_pct_during_load: during,
      load: {
        connections: CONNECTIONS,
        duration_s: DURATION_S,
        warmup_s: WARMUP_S,
        body_bytes: Buffer.byteLength(makeBody(requestId('m', 0))),
      },
    };
    const line = (/** @type {string} */ k, /** @type {string} */ v) => process.stdout.write(`${k.padEnd(30)} ${v}\n`);
    process.stdout.write(
      LOG
        ? '\nfloor with the log: floor + one Redis call, a request and an outcome record per event, written to the store\n'
        : '\nfloor: express → quorum queue (confirmed) → got → receiver; nothing else\n',
    );
    line(
      'bare express before / after',
      `${bareBefore.req_per_s}/s (steal ${bareBefore.steal_pct}%) / ${bareAfter.req_per_s}/s (steal ${bareAfter.steal_pct}%)`,
    );
    line(
      'floor accepted (202)',
      `${run.accepted_per_s}/s, p50 ${run.p50_ms} ms, p99 ${run.p99_ms} ms, non-2xx ${run.non_2xx}`,
    );
    line('floor delivered', `${deliveredPerS}/s, lost ${lost}, duplicates ${receiver.duplicates}`);
    line('ratio delivered ÷ bare express', String(report.ratio));
    if (LOG)
      line(
        'activity lag',
        `${logLagS === null ? 'not caught up' : `${logLagS} s`}; ${report.activity_documents} documents for ${accepted.size} events`,
      );
    line(
      'CPU % during load',
      `${Object.entries(during.processes)
        .map(([n, v]) => `${n} ${v}%`)
        .join(', ')}; machine ${during.busy_pct}% busy, steal ${during.steal_pct}%`,
    );
    process.stdout.write(`${JSON.stringify(report)}\n`);
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    fs.writeFileSync(
      path.join(RESULTS_DIR, LOG ? 'floor-with-log.json' : 'floor.json'),
      `${JSON.stringify(report, null, 2)}\n`,
    );
    return lost > 0 ? 1 : 0;
  } finally {
    await Promise.all(procs.map((p) => stopProcess(p)));
    if (receiver?.child.connected) receiver.child.disconnect();
    await deleteQueue(queue);
    if (LOG) {
      await deleteQueue(`${queue}_activity`);
      await dropDatabase(mongo.href);
    }
  }
}

/** @param {string} url */
async function dropDatabase(url) {
  const mongoose = require('mongoose');
  const conn = await mongoose
    .createConnection(url)
    .asPromise()
    .catch(() => null);
  if (!conn) return;
  try {
    await conn.dropDatabase();
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/** @param {string} queue */
async function deleteQueue(queue) {
  const conn = await amqp.connect(RABBITMQ_URL).catch(() => null);
  if (!conn) return;
  try {
    const ch = await conn.createChannel();
    await ch.deleteQueue(queue);
  } finally {
    await conn.close().catch(() => undefined);
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`bench/floor failed: ${err.stack || err}\n`);
    process.exit(1);
  },
);
