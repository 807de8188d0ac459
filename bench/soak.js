// npm run bench (soak): the whole system as `npm start` runs it under a steady open-loop rate for
// minutes, to show that nothing falls behind for good: the activity log's lag, the queues, the
// writers' flush times, the store's CPU and every service's memory, sampled every SOAK_SAMPLE_S.
// A closed-loop burst (bench/system.js) cannot show this: a backlog that grows by a second per
// second only shows after minutes, and only at a rate the system is meant to carry.
//
//   SOAK_RATE=300 SOAK_DURATION_S=600 SOAK_ACCOUNTS=1 node bench/soak.js
// Also: SOAK_ENDPOINTS (50, spread over the accounts, each with one webhook target on a local
// receiver), SOAK_WRITERS (activity-writer processes, 1), SOAK_PREFILL_ROWS (rows written into the
// current hour before the load, through the writer's own code: 0), SOAK_PAUSE_WRITERS_AT_S and
// SOAK_PAUSE_WRITERS_S (stop every writer for a while under load, then start them again: the
// catch-up time is reported), SOAK_SAMPLE_S (30), SOAK_NAME (the result file's name).
// Writes bench-results/<SOAK_NAME>.json. Exits 1 when the pass line is missed: the last lag under
// 5 s, every lag of the second half under it and its trend adding under a second, no service's memory growing by more than a quarter
// over the second half, every accepted event delivered.
'use strict';
const path = require('node:path');
const http = require('node:http');
const { MongoClient } = require('mongodb');
const { makeBody, requestId, startReceiver, waitDelivered } = require('./receiver');
const { eventMessages } = require('./activity-messages');
const {
  envNumber: num,
  infraPids,
  runToCompletion,
  startProcess,
  stopProcess,
  waitReady,
  sampleOf,
  machineCpu,
  machineWindow,
  freePort,
  percentile,
  writeResults,
} = require('./lib');
const { SERVICES, newRun, serviceEnv, startSystem, createProbes, writeLogs, cleanup } = require('./system');

const ROOT = path.resolve(__dirname, '..');
const RATE = num(process.env.SOAK_RATE, 300);
const DURATION_S = num(process.env.SOAK_DURATION_S, 600);
const ACCOUNTS = num(process.env.SOAK_ACCOUNTS, 1);
const ENDPOINTS = num(process.env.SOAK_ENDPOINTS, 50);
const WRITERS = num(process.env.SOAK_WRITERS, 1);
const PREFILL_ROWS = num(process.env.SOAK_PREFILL_ROWS, 0);
const PAUSE_AT_S = num(process.env.SOAK_PAUSE_WRITERS_AT_S, 0);
const PAUSE_S = num(process.env.SOAK_PAUSE_WRITERS_S, 0);
const SAMPLE_S = num(process.env.SOAK_SAMPLE_S, 30);
const NAME = process.env.SOAK_NAME || `soak-${ACCOUNTS}-account${ACCOUNTS === 1 ? '' : 's'}`;
/** the pass line's bound on the last lag sample, in seconds */
const LAG_BOUND_S = 5;
/** requests in flight beyond which the generator counts a tick's requests as not sent */
const MAX_IN_FLIGHT = 2000;
/** how long after the load the log may take to catch up before the run fails */
const DRAIN_S = num(process.env.SOAK_DRAIN_S, 300);

const T0 = Date.now();
const progress = (/** @type {string} */ msg) =>
  process.stderr.write(`soak bench [${((Date.now() - T0) / 1000).toFixed(0)} s]: ${msg}\n`);
const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Accounts (the bootstrap command, as an operator makes them) and ENDPOINTS endpoints spread over
 * them, each with one webhook target on the receiver, through the management API.
 * @param {import('./system').Run} ns
 * @param {Record<string, string>} env
 * @param {number} receiverPort
 */
async function seed(ns, env, receiverPort) {
  /** @type {{ accountId: string; apiKey: string }[]} */
  const accounts = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const out = await runToCompletion(
      path.join(ROOT, 'services/management-api/dist/bootstrap.js'),
      ['--account', `soak ${i}`, '--monthly-events', '1000000000'],
      env,
    );
    const boot = JSON.parse(out.trim());
    accounts.push({ accountId: boot.account_id, apiKey: boot.api_key });
  }
  const post = async (/** @type {string} */ key, /** @type {string} */ p, /** @type {unknown} */ body) => {
    const res = await fetch(`http://127.0.0.1:${ns.ports['management-api']}${p}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`POST ${p}: ${res.status} ${text}`);
    return JSON.parse(text);
  };
  /** @type {string[]} */
  const endpoints = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    const { apiKey } = accounts[i % ACCOUNTS];
    const endpoint = await post(apiKey, '/v1/endpoints', {
      name: `soak ${i}`,
      methods: ['POST'],
      payload_format: 'json',
      inbound_auth: { type: 'NONE' },
      rate_limit_per_minute: 100000,
    });
    await post(apiKey, `/v1/endpoints/${endpoint.id}/targets`, {
      kind: 'webhook',
      name: 'soak receiver',
      config: { url: `http://127.0.0.1:${receiverPort}/hook`, enforce_https: false },
    });
    endpoints.push(endpoint.id);
  }
  return { accounts, endpoints };
}

/**
 * Rows in the current hour before the load, through the writer's own flush code in big batches
 * (as bench/activity.js preloads), so the soak's hour starts as full as a busy hour ends.
 * @param {string} mongodbUrl
 * @param {string} accountId
 * @param {string[]} endpoints
 * @param {number} rows
 */
async function prefill(mongodbUrl, accountId, endpoints, rows) {
  const { connectStore } = require('@relay/store');
  const { createActivityWriter } = require('../libs/activity-log/dist/writing/flush');
  const { LogCollections } = require('../libs/activity-log/dist/storage/internal');
  const store = await connectStore(mongodbUrl);
  const writer = createActivityWriter(new LogCollections(store.connection));
  const hourStart = Math.floor(Date.now() / 3_600_000) * 3_600_000;
  const BATCH = 2000;
  const started = performance.now();
  try {
    for (let done = 0; done < rows; done += BATCH) {
      const events = [];
      for (let i = done; i < Math.min(rows, done + BATCH); i++) {
        // spread over the part of the hour that has passed, in time order as in production
        const at = hourStart + Math.floor((i / rows) * Math.max(1, Date.now() - hourStart - 1000));
        const receivedAt = new Date(at).toISOString();
        const [request, attempt] = eventMessages(accountId, endpoints[i % endpoints.length], i, receivedAt);
        events.push({ event_id: request.event_id, request, attempts: [attempt], tokens: [], oldest_ms: 0 });
      }
      await writer.write({ events, folds: [] }, { now: Date.now(), flush: done / BATCH + 1 });
      if ((done / BATCH) % 50 === 0) progress(`prefilled ${done} rows`);
    }
  } finally {
    await store.close();
  }
  return { rows, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) };
}

/**
 * An open-loop load: RATE requests a second whatever the answers, round-robin over the
 * endpoints, each body carrying its request id for the receiver. Latencies are kept per sample
 * window, so each window has its own p99.
 * @param {number} port
 * @param {string[]} endpoints
 */
function openLoop(port, endpoints) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const state = {
    sent: 0,
    accepted: 0,
    other: /** @type {Record<string, number>} */ ({}),
    not_sent: 0,
    inFlight: 0,
    /** @type {number[]} */ window: [],
    /** @type {Set<string>} */ acceptedIds: new Set(),
  };
  let timer = /** @type {NodeJS.Timeout | undefined} */ (undefined);
  const started = performance.now();
  const fire = (/** @type {number} */ seq) => {
    const id = requestId('s', seq);
    const body = makeBody(id);
    const t0 = performance.now();
    state.inFlight++;
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: `/relay/${endpoints[seq % endpoints.length]}`,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.once('end', () => {
          state.inFlight--;
          const status = res.statusCode ?? 0;
          if (status === 202) {
            state.accepted++;
            state.acceptedIds.add(id);
            state.window.push(performance.now() - t0);
          } else state.other[status] = (state.other[status] ?? 0) + 1;
        });
      },
    );
    req.once('error', () => {
      state.inFlight--;
      state.other[0] = (state.other[0] ?? 0) + 1;
    });
    req.end(body);
  };
  return {
    state,
    start() {
      timer = setInterval(() => {
        const due = Math.floor(((performance.now() - started) / 1000) * RATE);
        while (state.sent + state.not_sent < due) {
          if (state.inFlight >= MAX_IN_FLIGHT) state.not_sent++;
          else fire(state.sent++);
        }
      }, 10);
    },
    stop() {
      clearInterval(timer);
      agent.destroy();
    },
    /** the window's 202 latencies, p50 and p99, and a fresh window */
    takeWindow() {
      const w = state.window.sort((a, b) => a - b);
      state.window = [];
      const ms = (/** @type {number} */ p) => (w.length ? Number(percentile(w, p)?.toFixed(1)) : null);
      return { p50_ms: ms(50), p99_ms: ms(99) };
    },
  };
}

/**
 * The activity writers: started and stopped here, so that several can run and all can be paused.
 * @param {import('./system').Run} ns
 * @param {Record<string, string>} env
 */
function writerPool(ns, env) {
  /** @type {{ proc: import('./lib').BenchProcess; port: number }[]} */
  let running = [];
  const spec = SERVICES.find((s) => s.name === 'activity-writer');
  return {
    get ports() {
      return running.map((w) => w.port);
    },
    get pids() {
      return running.map((w) => /** @type {number} */ (w.proc.pid));
    },
    /** @param {number} count */
    async start(count) {
      for (let i = 0; i < count; i++) {
        const port = i === 0 ? ns.ports['activity-writer'] : await freePort();
        const proc = startProcess(path.join(ROOT, 'services/activity-writer/dist/main.js'), {
          ...env,
          ...spec?.env,
          HEALTH_PORT: String(port),
        });
        running.push({ proc, port });
      }
      await Promise.all(running.map((w) => waitReady(`http://127.0.0.1:${w.port}/readyz`, w.proc, 60000)));
    },
    async stop() {
      await Promise.all(running.map((w) => stopProcess(w.proc)));
      const out = running.map((w) => w.proc.output()).join('\n');
      running = [];
      return out;
    },
  };
}

/**
 * A writer's metrics, summed over the pool: unwritten records, the worst lag, flush time.
 * @param {number[]} ports
 */
async function writerMetrics(ports) {
  const { metricValue } = require('./lib');
  const each = await Promise.all(
    ports.map(async (port) => {
      const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
        (r) => (r.ok ? r.text() : ''),
        () => '',
      );
      return {
        port,
        lag_s: metricValue(text, 'relay_activity_lag_seconds'),
        unwritten: metricValue(text, 'relay_activity_unwritten_records'),
        rows_written: metricValue(text, 'relay_activity_rows_written_total'),
        records_written: metricValue(text, 'relay_activity_records_written_total'),
        flushes: metricValue(text, 'relay_activity_flushes_total'),
        flush_seconds: metricValue(text, 'relay_activity_flush_seconds_total'),
      };
    }),
  );
  const sum = (/** @type {'unwritten' | 'rows_written' | 'flushes' | 'flush_seconds'} */ k) =>
    each.reduce((n, w) => n + (w[k] ?? 0), 0);
  const lags = each.map((w) => w.lag_s).filter((v) => v !== null);
  return {
    lag_s: lags.length ? Math.max(.../** @type {number[]} */ (lags)) : null,
    unwritten: sum('unwritten'),
    rows_written: sum('rows_written'),
    flushes: sum('flushes'),
    flush_seconds: sum('flush_seconds'),
    per_writer: each,
  };
}

/** Least-squares slope of y over x (per second of x). */
function slope(/** @type {number[]} */ xs, /** @type {number[]} */ ys) {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

async function main() {
  const ns = await newRun('bench_soak');
  const env = serviceEnv(ns);
  /** @type {Record<string, import('./lib').BenchProcess>} */
  const procs = {};
  const receiver = await startReceiver();
  const mongo = new MongoClient(ns.mongodbUrl);
  const probes = createProbes(ns);
  const writers = writerPool(ns, env);
  let exitCode = 0;
  try {
    // every service but the writers as system.js starts them; the writers from the pool
    await startSystem(
      ns,
      env,
      procs,
      SERVICES.filter((s) => s.name !== 'activity-writer'),
    );
    await writers.start(WRITERS);
    progress(`system up; seeding ${ACCOUNTS} account(s), ${ENDPOINTS} endpoints`);
    const { accounts, endpoints } = await seed(ns, env, receiver.port);
    const prefilled = PREFILL_ROWS
      ? await prefill(ns.mongodbUrl, accounts[0].accountId, endpoints, PREFILL_ROWS)
      : null;
    if (prefilled) progress(`prefilled ${prefilled.rows} rows in ${prefilled.seconds} s`);

    const infra = infraPids();
    /** @type {Record<string, number | (() => number[])>} */
    const pids = { ...infra };
    for (const [name, p] of Object.entries(procs)) pids[name] = /** @type {number} */ (p.pid);
    pids['activity-writer'] = () => writers.pids;
    const cpu0 = Object.fromEntries(Object.entries(pids).map(([n, p]) => [n, sampleOf(p)?.cpu_s ?? 0]));
    let cpuPrev = { ...cpu0 };

    const load = openLoop(ns.ports['ingest-gateway'], endpoints);
    progress(`load: ${RATE}/s for ${DURATION_S} s to ${ENDPOINTS} endpoints of ${ACCOUNTS} account(s)`);
    const m0 = machineCpu();
    const loadStart = performance.now();
    load.start();
    /** @type {Record<string, unknown>[]} */
    const samples = [];
    /** @type {{ stopped_at_s: number; started_at_s: number | null; caught_up_at_s: number | null; backlog_max: number }} */
    const pause = { stopped_at_s: 0, started_at_s: null, caught_up_at_s: null, backlog_max: 0 };
    let paused = false;
    let prevWritten = 0;
    let prevSampleAt = performance.now();
    let nextSample = SAMPLE_S;
    for (;;) {
      await sleep(1000);
      const t = (performance.now() - loadStart) / 1000;
      if (PAUSE_S && !paused && pause.started_at_s === null && t >= PAUSE_AT_S) {
        progress('stopping every activity writer');
        await writers.stop();
        paused = true;
        pause.stopped_at_s = Number(t.toFixed(1));
      } else if (paused && t >= PAUSE_AT_S + PAUSE_S) {
        progress('starting the activity writers again');
        await writers.start(WRITERS);
        paused = false;
        pause.started_at_s = Number(((performance.now() - loadStart) / 1000).toFixed(1));
      }
      if (pause.started_at_s !== null && pause.caught_up_at_s === null) {
        const m = await writerMetrics(writers.ports);
        const queued = await probes.activityReady();
        if (m.lag_s !== null && m.lag_s < LAG_BOUND_S && (queued ?? 0) < RATE)
          pause.caught_up_at_s = Number(((performance.now() - loadStart) / 1000).toFixed(1));
      }
      if (t < nextSample && t < DURATION_S) continue;
      nextSample += SAMPLE_S;
      const m = await writerMetrics(writers.ports);
      const activityQueued = await probes.activityReady();
      if (paused) pause.backlog_max = Math.max(pause.backlog_max, activityQueued ?? 0);
      const webhookQueued = await probes.ready(probes.names.deliveryQueue('webhook'));
      const now = performance.now();
      const secs = (now - prevSampleAt) / 1000;
      /** @type {Record<string, number>} */
      const cpuPct = {};
      /** @type {Record<string, number>} */
      const rssMb = {};
      for (const [name, p] of Object.entries(pids)) {
        const s = sampleOf(p);
        if (!s) continue;
        cpuPct[name] = Math.round(((s.cpu_s - (cpuPrev[name] ?? 0)) / secs) * 100);
        rssMb[name] = Math.round(s.rss_bytes / 1048576);
        cpuPrev[name] = s.cpu_s;
      }
      const written = m.rows_written;
      const sample = {
        t_s: Math.round(t),
        accepted: load.state.accepted,
        not_accepted: Object.values(load.state.other).reduce((a, b) => a + b, 0),
        not_sent: load.state.not_sent,
        ...load.takeWindow(),
        activity_lag_s: m.lag_s,
        activity_unwritten: m.unwritten,
        activity_queued: activityQueued,
        webhook_queued: webhookQueued,
        rows_written_per_s: Math.round(Math.max(0, written - prevWritten) / secs),
        flush_ms_mean: m.flushes ? Math.round((m.flush_seconds / m.flushes) * 1000) : null,
        writers_running: writers.ports.length,
        rows_by_writer: m.per_writer.map((w) => w.rows_written),
        cpu_pct: cpuPct,
        rss_mb: rssMb,
      };
      prevWritten = written;
      prevSampleAt = now;
      samples.push(sample);
      progress(
        `lag ${sample.activity_lag_s ?? '–'} s, activity queue ${activityQueued}, webhook queue ${webhookQueued}, ` +
          `accepted ${sample.accepted}, p99 ${sample.p99_ms} ms, store ${cpuPct.store ?? '–'} %`,
      );
      if (t >= DURATION_S) break;
    }
    load.stop();
    const loadSeconds = (performance.now() - loadStart) / 1000;
    const machine = machineWindow(m0, machineCpu());
    progress('load ended; waiting for deliveries and the activity log');
    const ids = load.state.acceptedIds;
    const lost = await waitDelivered(receiver, ids, Date.now() + DRAIN_S * 1000);
    let drainedAt = null;
    for (const until = Date.now() + DRAIN_S * 1000; Date.now() < until;) {
      const m = await writerMetrics(writers.ports);
      const queued = await probes.activityReady();
      if (queued === 0 && m.unwritten === 0) {
        drainedAt = Number(((performance.now() - loadStart) / 1000 - loadSeconds).toFixed(1));
        break;
      }
      await sleep(500);
    }

    // the pass line, over the samples of the second half (a pause and its catch-up excluded)
    const half = samples.filter(
      (s) =>
        /** @type {number} */ (s.t_s) >= DURATION_S / 2 &&
        (pause.started_at_s === null ||
          pause.caught_up_at_s === null ||
          /** @type {number} */ (s.t_s) > pause.caught_up_at_s),
    );
    const lagXs = half.filter((s) => s.activity_lag_s !== null).map((s) => /** @type {number} */ (s.t_s));
    const lagYs = half.filter((s) => s.activity_lag_s !== null).map((s) => /** @type {number} */ (s.activity_lag_s));
    const last = samples[samples.length - 1];
    const lagSlope = slope(lagXs, lagYs);
    /** @type {Record<string, number>} */
    const memoryGrowth = {};
    if (half.length >= 2) {
      const first = /** @type {Record<string, number>} */ (half[0].rss_mb);
      const end = /** @type {Record<string, number>} */ (last.rss_mb);
      for (const name of Object.keys(end))
        if (first[name]) memoryGrowth[name] = Number((end[name] / first[name]).toFixed(2));
    }
    const services = Object.keys(procs).concat('activity-writer');
    const checks = {
      last_lag_under_bound: typeof last.activity_lag_s === 'number' && last.activity_lag_s < LAG_BOUND_S,
      second_half_under_bound: lagYs.every((y) => y < LAG_BOUND_S),
      // flat: the trend would not add a second over the second half
      lag_not_rising: lagSlope * (DURATION_S / 2) < 1,
      memory_flat: services.every((n) => (memoryGrowth[n] ?? 1) <= 1.25),
      nothing_lost: lost === 0,
      log_drained: drainedAt !== null,
    };
    const passed = Object.values(checks).every(Boolean);
    if (!passed) exitCode = 1;
    const report = {
      bench: 'soak',
      at: new Date().toISOString(),
      command: `SOAK_RATE=${RATE} SOAK_DURATION_S=${DURATION_S} SOAK_ACCOUNTS=${ACCOUNTS} SOAK_ENDPOINTS=${ENDPOINTS} SOAK_WRITERS=${WRITERS} SOAK_PREFILL_ROWS=${PREFILL_ROWS}${PAUSE_S ? ` SOAK_PAUSE_WRITERS_AT_S=${PAUSE_AT_S} SOAK_PAUSE_WRITERS_S=${PAUSE_S}` : ''} node bench/soak.js`,
      machine: { cores: require('node:os').cpus().length, busy_pct: machine.busy_pct, steal_pct: machine.steal_pct },
      settings: { rate: RATE, duration_s: DURATION_S, accounts: ACCOUNTS, endpoints: ENDPOINTS, writers: WRITERS },
      prefilled,
      totals: {
        sent: load.state.sent,
        accepted: load.state.accepted,
        not_accepted: load.state.other,
        not_sent: load.state.not_sent,
        delivered: ids.size - lost,
        lost,
        duplicates: receiver.duplicates,
        log_drained_after_load_s: drainedAt,
      },
      pause: PAUSE_S
        ? {
            ...pause,
            catch_up_s:
              pause.caught_up_at_s === null || pause.started_at_s === null
                ? null
                : Number((pause.caught_up_at_s - pause.started_at_s).toFixed(1)),
          }
        : null,
      pass_line: {
        lag_bound_s: LAG_BOUND_S,
        lag_slope_s_per_s: Number(lagSlope.toFixed(4)),
        memory_growth: memoryGrowth,
        checks,
        passed,
      },
      samples,
    };
    writeResults(NAME, report);
    progress(`${passed ? 'PASSED' : 'FAILED'}: ${JSON.stringify(checks)}; written bench-results/${NAME}.json`);
  } catch (err) {
    process.stderr.write(`soak bench: ${/** @type {Error} */ (err).stack}\n`);
    exitCode = 1;
  } finally {
    writeLogs(procs);
    await writers.stop().catch(() => '');
    for (const p of Object.values(procs)) await stopProcess(p).catch(() => undefined);
    receiver.child.kill();
    await probes.close();
    await cleanup(ns, mongo);
  }
  return exitCode;
}

void main().then((code) => process.exit(code));
