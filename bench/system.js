// npm run bench (headline): the whole system as users run it. Every service its own process,
// started the way scripts/start.sh starts them (same variables, fresh RELAY_NAMESPACE and
// database per run), one endpoint with ONE webhook target on a local receiver, and bare express
// measured under the same load in the same run, before and after Relay's load. Reports
// accepted/s, delivered/s, the ratio to bare express, p50/p99 of the 202, lost and duplicate
// deliveries, and how long the activity log took to catch up after the load. Prints a table and one JSON line; writes bench-results/system.json.
//
//   BENCH_DURATION_S=20 BENCH_WARMUP_S=3 BENCH_CONNECTIONS=64 node bench/system.js
//   BENCH_DURATION_S=3 node bench/system.js      # short mode (npm run bench:smoke: test/bench/smoke.test.ts)
// Also: BENCH_NODE_ARGS (node flags for every service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"), BENCH_DELIVERY_TIMEOUT_S / BENCH_CATCHUP_TIMEOUT_S (bounds of the waits after the load,
// 120 s, 30 s in short mode), BENCH_RESULTS_DIR (default bench-results/). Ports are free ones,
// not start.sh's fixed ones, so the bench can run beside `npm start`. Exits 1 if an accepted
// event was never delivered. Service output (warnings and errors) goes to <results>/system-logs/.
'use strict';
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const amqp = require('amqplib');
const { Redis } = require('ioredis');
const { MongoClient } = require('mongodb');
const { brokerNames } = require('@relay/contracts');
const { makeBody, requestId, startReceiver, waitDelivered } = require('./receiver');
const {
  deleteBrokerNamespace,
  envNumber: num,
  infraPids,
  freePort,
  startProcess,
  runToCompletion,
  waitFor,
  waitReady,
  stopProcess,
  loadTracked,
  sampleOf,
  machineCpu,
  machineWindow,
  metricValue,
  waitQuiet,
} = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const DURATION_S = num(process.env.BENCH_DURATION_S, 20);
const WARMUP_S = num(process.env.BENCH_WARMUP_S, DURATION_S <= 5 ? 1 : 3);
const CONNECTIONS = num(process.env.BENCH_CONNECTIONS, 64);
// every wait is bounded and counted from the end of the load it follows
const SHORT = DURATION_S <= 5; // CI smoke mode: shorter bounds, so a stuck system fails fast
const DELIVERY_TIMEOUT_S = num(process.env.BENCH_DELIVERY_TIMEOUT_S, SHORT ? 30 : 120);
const CATCHUP_TIMEOUT_S = num(process.env.BENCH_CATCHUP_TIMEOUT_S, SHORT ? 30 : 120);
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR || path.join(ROOT, 'bench-results');
const SAMPLE_SIZE = 100;
const SERVICE_NODE_ARGS = (process.env.BENCH_NODE_ARGS || '').split(' ').filter(Boolean);

/**
 * BENCH_TARGET_RULES=1 (bench/rules.js): the receiver's target routes on the payload
 * (every bench event matches) under a rate and in-flight limit that never bind, and a second
 * target's rule matches none — so every event pays for evaluating two targets' rules, a gate
 * check and a "not routed" entry in its row, and the receiver still gets each event once.
 * BENCH_TARGET_RULES=rules-only: the same rules without the limits, so the two costs separate.
 */
const RULES_VARIANT =
  process.env.BENCH_TARGET_RULES === '1' || process.env.BENCH_TARGET_RULES === 'rules-only'
    ? process.env.BENCH_TARGET_RULES
    : null;
const RULES = RULES_VARIANT
  ? {
      receiver: {
        routing: {
          match: 'all',
          rules: [
            { kind: 'equals', path: 'event', value: 'order.created' },
            { kind: 'exists', path: 'data.note' },
          ],
        },
        ...(RULES_VARIANT === '1' ? { limits: { rate: 10000, per: 'second', max_in_flight: 1000 } } : {}),
      },
      other: { routing: { match: 'any', rules: [{ kind: 'equals', path: 'event', value: 'order.paid' }] } },
    }
  : null;

/**
 * BENCH_TRANSFORM=1: the endpoint has a typical transformation (docs/transformations.md), a few
 * field renames on every event; "id" stays first, as the receiver reads it.
 */
const TRANSFORM =
  process.env.BENCH_TRANSFORM === '1'
    ? '(request) => ({ ...request, body: { id: request.body.id, type: request.body.event, note: request.body.data.note, source: "bench" } })'
    : null;

/**
 * BENCH_ORDERING=1 (bench/rules.js `ordered`): the receiver's target is ordered by the body's
 * `key` (docs/ordering.md), spread over ORDER_KEYS keys (the request's sequence number modulo it),
 * so every delivery goes through the ordered partitions and their per-key sequencing.
 */
const ORDERING = process.env.BENCH_ORDERING === '1';
const ORDER_KEYS = 1000;

// the body's "id" starts with its phase (bench/receiver.js)
const PHASES = { probe: 'p', warmup: 'w', measured: 'm', baseline: 'b' };

/**
 * A run's namespace, database and servers, and the port of every service.
 * @typedef {{ namespace: string; mongodbUrl: string; rabbitmqUrl: string; redisUrl: string; ports: Record<string, number>; healthPorts: Record<string, number> }} Run
 */
/** @typedef {import('./lib').BenchProcess} BenchProcess */
/** @typedef {ReturnType<typeof createProbes>} Probes */
/** What waitActivity reads through the management API: a row's status, the endpoint's first list page. @typedef {{ rowStatus(id: string): Promise<string | null>; firstListPage(): Promise<string> }} ActivityApi */
/**
 * What waitActivity saw: when the log caught up (null: not within the bound) and the sampled rows.
 * @typedef {{ caught_up: boolean; at: number | null; sample_incomplete: number | null; sample_read_s?: number; list_first_page_ms?: number; queue_empty_at: number | null; unwritten_zero_at: number | null; metric_present: boolean; last: Record<string, unknown> | null }} ActivityWait
 */

/** @type {{ name: string; program?: string; env?: Record<string, string>; portVar: string }[]} */
const SERVICES = [
  { name: 'management-api', portVar: 'PORT' },
  // the gateway's /readyz is on its HEALTH_PORT (ns.healthPorts), never on the ingest port
  { name: 'ingest-gateway', portVar: 'PORT' },
  // the one deliverer program (services/deliverer), a process per channel
  { name: 'webhook-deliverer', program: 'deliverer', env: { DELIVERY_CHANNEL: 'webhook' }, portVar: 'HEALTH_PORT' },
  { name: 'chat-deliverer', program: 'deliverer', env: { DELIVERY_CHANNEL: 'chat' }, portVar: 'HEALTH_PORT' },
  { name: 'activity-writer', portVar: 'HEALTH_PORT' },
];

const DEFINITIONS = {
  accepted_per_s: '2xx answers of the measured load ÷ its duration',
  delivered_per_s:
    'unique events (by X-Relay-Event-Id) of the measured load received by the receiver ÷ seconds from the start of the measured load until the last of them arrived',
  delivered_during_load_per_s:
    'unique events of the measured load received before the load ended ÷ load_window_s (the wall time of the autocannon run, a little longer than its duration)',
  ratio:
    "delivered_per_s ÷ bare express req/s (2xx/s) under the same load in the same run: the mean of a run before Relay's load and one after it (once the activity log caught up and the machine was quiet), so both see the shared host's changing speed",
  steal_pct:
    'CPU time the host gave to other virtual machines while ours had work (/proc/stat steal), 100 = one core: what a phase lost to its neighbours',
  p50_p99: 'latency of the 2xx answers only (the 202 of Relay), as autocannon measured it',
  lost: 'requests answered 2xx (probe, warm-up and measured) whose event never reached the receiver within the delivery wait; must be 0',
  accepted_delivered: 'counts of the whole run: the probe request, the warm-up and the measured load',
  duplicates: 'deliveries whose X-Relay-Event-Id the receiver had already seen',
  unacknowledged_delivered:
    'events delivered whose request got no answer because the load generator stopped while it was in flight',
  activity_lag_s: `seconds from the end of the measured load until the activity log caught up: the <namespace>.activity queue has 0 ready messages AND the activity-writer's /metrics says relay_activity_unwritten_records 0 (queue only when that gauge is absent) (every row written). Then, timed apart: each of the last ${SAMPLE_SIZE} delivered events is read by GET /v1/activity/:eventId and must be Completed (sample_read_s), and the endpoint's first list page is timed (list_first_page_ms, median of 3)`,
};

// ---------------------------------------------------------------------------------------------
// The system under test

/** @param {Run} ns */
function serviceEnv(ns) {
  // what scripts/start.sh exports to every service, with this run's namespace, database and ports
  return {
    REDIS_URL: ns.redisUrl,
    RABBITMQ_URL: ns.rabbitmqUrl,
    MONGODB_URL: ns.mongodbUrl,
    SECRETS_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    GATEWAY_PORT: String(ns.ports['ingest-gateway']),
    PUBLIC_BASE_URL: `http://127.0.0.1:${ns.ports['ingest-gateway']}`,
    SSRF_ALLOW_CIDRS: '127.0.0.0/8',
    HOST: '127.0.0.1',
    RELAY_NAMESPACE: ns.namespace,
    LOG_LEVEL: 'warn',
  };
}

/** Where a service's /readyz is: the gateway's own HEALTH_PORT, else the port it listens on. */
const healthPortOf = (/** @type {Run} */ ns, /** @type {string} */ name) => ns.healthPorts[name] ?? ns.ports[name];

/**
 * @param {Run} ns
 * @param {Record<string, string>} env
 * @param {Record<string, BenchProcess>} procs
 * @param {typeof SERVICES} services which of them to start (all by default)
 */
async function startSystem(ns, env, procs, services = SERVICES) {
  for (const s of services) {
    const health = ns.healthPorts[s.name] ? { HEALTH_PORT: String(ns.healthPorts[s.name]) } : {};
    procs[s.name] = startProcess(
      path.join(ROOT, 'services', s.program ?? s.name, 'dist', 'main.js'),
      { ...env, ...s.env, ...health, [s.portVar]: String(ns.ports[s.name]) },
      SERVICE_NODE_ARGS,
    );
  }
  await Promise.all(
    services.map(async (s) => {
      await waitReady(`http://127.0.0.1:${healthPortOf(ns, s.name)}/readyz`, procs[s.name], 60000).catch((err) => {
        throw new Error(`${s.name}: ${err.message}\n--- ${s.name} output ---\n${procs[s.name].output().slice(-3000)}`);
      });
    }),
  );
}

/** An account (bootstrap command), then an endpoint and its one webhook target through the management API. */
/**
 * @param {Run} ns
 * @param {Record<string, string>} env
 * @param {number} receiverPort
 */
async function seed(ns, env, receiverPort) {
  const boot = JSON.parse(
    (
      await runToCompletion(
        path.join(ROOT, 'services/management-api/dist/bootstrap.js'),
        ['--account', 'bench', '--monthly-events', '1000000000'],
        env,
      )
    ).trim(),
  );
  const api = async (/** @type {string} */ p, /** @type {unknown} */ body, method = 'POST') => {
    const res = await fetch(`http://127.0.0.1:${ns.ports['management-api']}${p}`, {
      method,
      headers: { authorization: `Bearer ${boot.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`${method} ${p}: ${res.status} ${text}`);
    return JSON.parse(text);
  };
  // 100,000/min is the highest rate limit the API accepts (a sliding minute, so a 20 s run at
  // under ~4,000/s never reaches it); 429s would show up as non-2xx
  const endpoint = await api('/v1/endpoints', {
    name: 'bench',
    methods: ['POST'],
    payload_format: 'json',
    inbound_auth: { type: 'NONE' },
    rate_limit_per_minute: 100000,
  });
  const hook = { url: `http://127.0.0.1:${receiverPort}/hook`, enforce_https: false };
  await api(`/v1/endpoints/${endpoint.id}/targets`, {
    kind: 'webhook',
    name: 'bench receiver',
    config: hook,
    ...(RULES ? RULES.receiver : {}),
    ...(ORDERING ? { ordering: { key: { from: 'path', path: 'key' } } } : {}),
  });
  if (RULES)
    await api(`/v1/endpoints/${endpoint.id}/targets`, {
      kind: 'webhook',
      name: 'never routed',
      config: hook,
      ...RULES.other,
    });
  if (TRANSFORM) await api(`/v1/endpoints/${endpoint.id}/transformation`, { code: TRANSFORM }, 'PUT');
  return { endpointId: endpoint.id, apiKey: boot.api_key };
}

/** Read-only probes of the broker (ready counts) and the activity-writer's /metrics. */
/** @param {Run} ns */
function createProbes(ns) {
  const names = brokerNames(ns.namespace);
  /** @type {import('amqplib').ChannelModel | null} */
  let conn = null;
  /** @type {import('amqplib').Channel | null} */
  let ch = null;
  const channel = async () => {
    if (!conn) conn = await amqp.connect(ns.rabbitmqUrl);
    if (!ch) {
      ch = await conn.createChannel();
      ch.on('error', () => undefined);
      ch.on('close', () => (ch = null));
    }
    return ch;
  };
  return {
    names,
    /** @param {string} queue */
    async ready(queue) {
      try {
        return (await (await channel()).checkQueue(queue)).messageCount;
      } catch {
        return null;
      }
    },
    /** activity records waiting on the broker: every partition queue and the queue of before partitions */
    async activityReady() {
      let total = 0;
      for (const q of [names.activityQueue, ...names.activityPartitionQueues]) {
        const n = await this.ready(q);
        if (n === null) return null;
        total += n;
      }
      return total;
    },
    async writerMetrics() {
      const text = await fetch(`http://127.0.0.1:${ns.ports['activity-writer']}/metrics`).then(
        (r) => (r.ok ? r.text() : ''),
        () => '',
      );
      return {
        unwritten: metricValue(text, 'relay_activity_unwritten_records'),
        lag_s: metricValue(text, 'relay_activity_lag_seconds'),
        rows_written: metricValue(text, 'relay_activity_rows_written_total'),
      };
    },
    async close() {
      if (conn) await conn.close().catch(() => undefined);
    },
  };
}

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));
const T0 = Date.now();
const progress = (/** @type {string} */ msg) =>
  process.stderr.write(`system bench [${((Date.now() - T0) / 1000).toFixed(1)} s]: ${msg}\n`);

/**
 * Waits until the activity log has caught up (see DEFINITIONS.activity_lag_s) or `deadline`,
 * then checks that the sampled events' rows are there and Completed: each read by `_id` in its
 * hourly partition, as `GET /v1/activity/:eventId` reads it (on FerretDB every such read scans
 * the hour's partition, so in a busy hour the check itself takes a while; it is timed apart and
 * is not part of the lag). Also times the endpoint's first list page in that hour.
 * @param {Probes} probes
 * @param {ActivityApi} api
 * @param {Iterable<string>} sampleEventIds
 * @param {number} deadline
 * @returns {Promise<ActivityWait>}
 */
async function waitActivity(probes, api, sampleEventIds, deadline) {
  /** @type {Pick<ActivityWait, 'queue_empty_at' | 'unwritten_zero_at' | 'metric_present' | 'last'>} */
  const seen = { queue_empty_at: null, unwritten_zero_at: null, metric_present: false, last: null };
  /** @type {number | null} */
  let at = null;
  while (at === null) {
    const ready = await probes.activityReady();
    const m = await probes.writerMetrics();
    seen.last = { activity_ready: ready, ...m };
    if (m.unwritten !== null) seen.metric_present = true;
    // since when each has stayed at 0 (requeued messages can fill the queue again)
    if (ready !== 0) seen.queue_empty_at = null;
    else seen.queue_empty_at ??= Date.now();
    if (m.unwritten !== 0) seen.unwritten_zero_at = null;
    else seen.unwritten_zero_at ??= Date.now();
    if (seen.queue_empty_at !== null && (m.unwritten === null || seen.unwritten_zero_at !== null))
      at = Math.max(seen.queue_empty_at, seen.unwritten_zero_at ?? 0);
    else if (Date.now() > deadline) return { caught_up: false, at: null, sample_incomplete: null, ...seen };
    else await sleep(250);
  }
  const checkStarted = Date.now();
  const pending = new Set(sampleEventIds);
  while (pending.size > 0 && Date.now() < deadline) {
    for (const ids of chunks([...pending], 20))
      await Promise.all(ids.map(async (id) => (await api.rowStatus(id)) === 'completed' && pending.delete(id)));
    if (pending.size > 0) await sleep(1000);
  }
  const sampleReadS = Number(((Date.now() - checkStarted) / 1000).toFixed(2));
  /** @type {number[]} */
  const listed = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await api.firstListPage();
    listed.push(performance.now() - t);
  }
  return {
    caught_up: true,
    at,
    sample_read_s: sampleReadS,
    sample_incomplete: pending.size,
    list_first_page_ms: Math.round(listed.sort((a, b) => a - b)[1]),
    ...seen,
  };
}

/** @type {<T>(list: T[], n: number) => T[][]} */
const chunks = (list, n) => Array.from({ length: Math.ceil(list.length / n) }, (_, i) => list.slice(i * n, i * n + n));

/**
 * CPU% (100 = one core) and peak RSS of the named processes (each a pid, or a function giving a
 * group's pids: sampleOf) between start() and stop(), queue depths each second, and the CPU
 * the rest of the machine used meanwhile: other work on a shared machine makes the figures
 * incomparable, so the report says how much there was.
 * @param {Record<string, number | (() => number[])>} pids
 * @param {Probes} probes
 */
function createSampler(pids, probes) {
  /** @type {Record<string, import('./lib').ProcSample>} */
  const first = {};
  /** @type {Record<string, number>} */
  const peak = {};
  const queues = { activity_ready_max: 0, webhook_ready_max: 0 };
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  let t0 = 0;
  const sampleAll = () => {
    /** @type {Record<string, import('./lib').ProcSample>} */
    const now = {};
    for (const [name, pid] of Object.entries(pids)) {
      const s = sampleOf(pid);
      if (!s) continue;
      now[name] = s;
      peak[name] = Math.max(peak[name] || 0, s.rss_bytes);
    }
    return now;
  };
  const tick = async () => {
    sampleAll();
    const [a, w] = await Promise.all([probes.activityReady(), probes.ready(probes.names.deliveryQueue('webhook'))]);
    queues.activity_ready_max = Math.max(queues.activity_ready_max, a || 0);
    queues.webhook_ready_max = Math.max(queues.webhook_ready_max, w || 0);
  };
  /** @type {import('./lib').MachineCpu | null} */
  let m0 = null;
  return {
    start() {
      t0 = performance.now();
      m0 = machineCpu();
      Object.assign(first, sampleAll());
      timer = setInterval(() => void tick(), 1000);
    },
    stop() {
      clearInterval(timer);
      const last = sampleAll();
      const seconds = (performance.now() - t0) / 1000;
      /** @type {Record<string, { cpu_pct: number; rss_mb_max: number }>} */
      const processes = {};
      for (const name of Object.keys(pids)) {
        if (!first[name] || !last[name]) continue;
        processes[name] = {
          cpu_pct: Math.round(((last[name].cpu_s - first[name].cpu_s) / seconds) * 100),
          rss_mb_max: Math.round(peak[name] / 1048576),
        };
      }
      const { busy_pct: machinePct, steal_pct } = machineWindow(
        /** @type {import('./lib').MachineCpu} */ (m0),
        machineCpu(),
      );
      const ours = Object.values(processes).reduce((a, p) => a + p.cpu_pct, 0);
      const machine = {
        cores: os.cpus().length,
        busy_pct: machinePct,
        steal_pct,
        other_processes_pct: machinePct === null ? null : Math.max(0, machinePct - ours - (steal_pct ?? 0)),
        loadavg_1m: Number(os.loadavg()[0].toFixed(2)),
      };
      return { processes, queues: { ...queues }, machine };
    },
    /** CPU% per process from now until the returned function is called (no RSS, no queues). */
    window() {
      const a = sampleAll();
      const ta = performance.now();
      return () => {
        const b = sampleAll();
        const seconds = (performance.now() - ta) / 1000;
        /** @type {Record<string, number>} */
        const out = {};
        for (const name of Object.keys(a))
          if (b[name]) out[name] = Math.round(((b[name].cpu_s - a[name].cpu_s) / seconds) * 100);
        return out;
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------

/** A run of its own: a fresh namespace and database, the servers' URLs, a free port for every service. */
/**
 * @param {string} prefix
 * @returns {Promise<Run>}
 */
async function newRun(prefix) {
  const namespace = `${prefix}_${randomBytes(4).toString('hex')}`;
  const mongo = new URL(process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay');
  mongo.pathname = `/${namespace}`;
  /** @type {Run} */
  const ns = {
    namespace,
    mongodbUrl: mongo.toString(),
    rabbitmqUrl: process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672',
    redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    ports: {},
    // the management API's HEALTH_PORT defaults to start.sh's fixed 8094: a free one, so the bench runs beside `npm start`
    healthPorts: { 'ingest-gateway': await freePort(), 'management-api': await freePort() },
  };
  for (const s of SERVICES) ns.ports[s.name] = await freePort();
  return ns;
}

async function main() {
  const ns = await newRun('bench_sys');
  const env = serviceEnv(ns);
  /** @type {Record<string, BenchProcess>} */
  const procs = {};
  /** @type {import('./receiver').Receiver | null} */
  let receiver = null;
  /** @type {BenchProcess | null} */
  let bare = null;
  const probes = createProbes(ns);
  const mongoClient = new MongoClient(ns.mongodbUrl);
  let exitCode = 0;
  /** @type {Promise<void> | null} */
  let done = null;
  // stops what this run started and deletes what it made; once, from the end of the run or a signal
  teardown = () =>
    (done ??= (async () => {
      await Promise.all(Object.values(procs).map((p) => stopProcess(p)));
      if (bare) await stopProcess(bare);
      writeLogs(procs);
      await probes.close();
      await cleanup(ns, mongoClient);
      if (receiver) {
        if (receiver.child.connected) receiver.child.disconnect();
        await receiver.child.exited;
      }
    })());
  try {
    receiver = await startReceiver();
    const barePort = await freePort();
    bare = startProcess(path.join(__dirname, 'bare-express.js'), { PORT: String(barePort) });
    progress('starting the services');
    await startSystem(ns, env, procs);
    progress('services ready; seeding through the management API');
    await waitFor(`http://127.0.0.1:${barePort}/nothing`);
    const { endpointId, apiKey } = await seed(ns, env, receiver.port);
    const apiGet = (/** @type {string} */ p) =>
      fetch(`http://127.0.0.1:${ns.ports['management-api']}${p}`, { headers: { authorization: `Bearer ${apiKey}` } });
    /** @type {ActivityApi} */
    const activityApi = {
      rowStatus: (id) =>
        apiGet(`/v1/activity/${id}`)
          .then((r) => (r.status === 200 ? /** @type {Promise<{ status: string }>} */ (r.json()) : null))
          .then(
            (row) => row?.status ?? null,
            () => null,
          ),
      firstListPage: () => apiGet(`/v1/activity?endpoint_id=${endpointId}&limit=50`).then((r) => r.text()),
    };
    const ingestUrl = `http://127.0.0.1:${ns.ports['ingest-gateway']}/relay/${endpointId}`;
    const headers = { 'content-type': 'application/json' };
    /** @type {Set<string>} */
    const accepted = new Set();
    /** @type {(url: string, phase: string, durationS: number, track: boolean) => ReturnType<typeof loadTracked>} */
    const loadPhase = (url, phase, durationS, track) =>
      loadTracked(url, {
        connections: CONNECTIONS,
        durationS,
        headers,
        makeBody: (seq) => makeBody(requestId(phase, seq), ORDERING ? seq % ORDER_KEYS : undefined),
        onAccepted: track ? (seq) => accepted.add(requestId(phase, seq)) : undefined,
      });

    // one request end to end before any load: a broken path fails here with a clear message
    const probeId = requestId(PHASES.probe, 0);
    const probe = await fetch(ingestUrl, { method: 'POST', headers, body: makeBody(probeId) });
    if (probe.status !== 202) throw new Error(`probe request: ${probe.status} ${await probe.text()}`);
    accepted.add(probeId);
    if ((await waitDelivered(receiver, [probeId], Date.now() + 30000)) > 0)
      throw new Error('probe event not delivered within 30 s');

    // The baseline, while Relay's services run idle: once before Relay's load and once after it
    // (once the log has caught up and the machine is quiet), and the ratio is taken to their
    // mean. On a shared virtual machine the CPU left to this one moves by tens of percent within
    // minutes (the steal figures say how much); a baseline on both sides of the measured load
    // sees the same conditions on average as the load itself did.
    const bareUrl = `http://127.0.0.1:${barePort}/relay/${endpointId}`;
    const measureBare = async (/** @type {string} */ when) => {
      progress(`bare express (${when}) ${WARMUP_S} s warm-up + ${DURATION_S} s`);
      await loadPhase(bareUrl, PHASES.baseline, WARMUP_S, false);
      const m0 = machineCpu();
      const r = await loadPhase(bareUrl, PHASES.baseline, DURATION_S, false);
      return {
        req_per_s: r.accepted_per_s,
        p50_ms: r.p50_ms,
        p99_ms: r.p99_ms,
        non_2xx: r.non_2xx,
        errors: r.errors,
        ...machineWindow(m0, machineCpu()),
      };
    };
    const bareBefore = await measureBare('before');

    // warm-up (JIT, connection pools, the endpoint cache), then let the system drain so the
    // measured load starts from empty queues and a caught-up activity log
    progress(`relay ${WARMUP_S} s warm-up`);
    const warm = await loadPhase(ingestUrl, PHASES.warmup, WARMUP_S, true);
    const warmDeadline = warm.ended_at + Math.min(60, CATCHUP_TIMEOUT_S) * 1000;
    const warmMissing = await waitDelivered(receiver, accepted, warmDeadline);
    const warmSample = receiver.order.slice(-SAMPLE_SIZE).map((a) => a.eventId);
    const warmActivity = await waitActivity(probes, activityApi, warmSample, warmDeadline);
    const warmup = {
      accepted: warm.accepted,
      drained: warmMissing === 0 && warmActivity.caught_up,
      drain_s: Number(((Date.now() - warm.ended_at) / 1000).toFixed(1)),
    };

    progress(
      `${warmup.drained ? 'warm-up drained' : 'warm-up NOT drained (continuing)'} after ${warmup.drain_s} s; relay ${DURATION_S} s measured load`,
    );
    /** @type {Record<string, number | (() => number[])>} */
    const pids = Object.fromEntries(SERVICES.map((s) => [s.name, /** @type {number} */ (procs[s.name].pid)]));
    Object.assign(pids, { receiver: receiver.child.pid, 'load generator': process.pid }, infraPids());
    const sampler = createSampler(pids, probes);
    sampler.start();
    const relay = await loadPhase(ingestUrl, PHASES.measured, DURATION_S, true);
    const during = sampler.stop();
    const atLoadEnd = {
      activity_ready: await probes.activityReady(),
      webhook_ready: await probes.ready(probes.names.deliveryQueue('webhook')),
    };
    const afterCpu = sampler.window();

    progress('waiting for deliveries and the activity log');
    const lost = await waitDelivered(receiver, accepted, relay.ended_at + DELIVERY_TIMEOUT_S * 1000);
    const measuredArrivals = receiver.order.filter((a) => a.id.startsWith(PHASES.measured));
    const sample = measuredArrivals.slice(-SAMPLE_SIZE).map((a) => a.eventId);
    const act = await waitActivity(probes, activityApi, sample, relay.ended_at + CATCHUP_TIMEOUT_S * 1000);
    const drainCpu = afterCpu();
    await receiver.flush();
    // a dead-lettered activity message is a row missing from the log; a dead delivery, a lost event
    const deadLetters = {
      activity: await probes.ready(probes.names.deadActivityQueue),
      webhook: await probes.ready(probes.names.deadDeliveryQueue('webhook')),
    };
    const logLines = Object.fromEntries(
      Object.entries(procs).map(([name, p]) => [name, p.output().split('\n').filter(Boolean).length]),
    );
    const quiet = await waitQuiet(SHORT ? 5 : 20);
    const bareAfter = await measureBare('after');
    await stopProcess(bare);
    const bareResult = meanBaseline(bareBefore, bareAfter);

    const lastAt = measuredArrivals.length ? measuredArrivals[measuredArrivals.length - 1].at : null;
    const deliveredMeasured = measuredArrivals.length;
    const deliveredInWindow = measuredArrivals.filter((a) => a.at <= relay.ended_at).length;
    const unacknowledged = [...receiver.byId.keys()].filter((id) => !accepted.has(id)).length;
    const deliveredPerS = lastAt ? Math.round(deliveredMeasured / ((lastAt - relay.started_at) / 1000)) : 0;
    const secondsAfter = (/** @type {number | null} */ t) =>
      t === null ? null : Number(((t - relay.ended_at) / 1000).toFixed(2));
    const report = {
      bench: 'system',
      at: new Date().toISOString(),
      accepted_per_s: relay.accepted_per_s,
      delivered_per_s: deliveredPerS,
      bare_express_req_per_s: bareResult.req_per_s,
      ratio: bareResult.req_per_s ? Number((deliveredPerS / bareResult.req_per_s).toFixed(3)) : null,
      p50_ms: relay.p50_ms,
      p99_ms: relay.p99_ms,
      non_2xx: relay.non_2xx,
      errors: relay.errors,
      accepted: accepted.size,
      delivered: receiver.byId.size,
      lost,
      duplicates: receiver.duplicates,
      activity_caught_up: act.caught_up,
      activity_lag_s: act.caught_up ? secondsAfter(act.at) : null,
      load: {
        tool: 'autocannon (closed loop, one body per request)',
        connections: CONNECTIONS,
        duration_s: DURATION_S,
        warmup_s: WARMUP_S,
        body_bytes: Buffer.byteLength(makeBody(requestId('m', 0))),
        targets: RULES
          ? `1 webhook (local receiver answering 200 at once) routed by 2 rules${RULES_VARIANT === '1' ? ' under a 10,000/s, 1,000-in-flight limit' : ''}, + 1 webhook whose rule matches no event`
          : ORDERING
            ? `1 webhook (local receiver answering 200 at once) ordered by the body's key, ${ORDER_KEYS} keys`
            : '1 webhook (local receiver answering 200 at once)',
      },
      bare_express: {
        ...bareResult,
        before: bareBefore,
        after: bareAfter,
        quiet_wait_s: quiet.waited_s,
        quiet_busy_pct: quiet.busy_pct,
        quiet_reached: quiet.reached,
      },
      relay: {
        accepted_measured: relay.accepted,
        statuses: relay.statuses,
        delivered_measured: deliveredMeasured,
        load_window_s: Number(((relay.ended_at - relay.started_at) / 1000).toFixed(2)),
        delivered_during_load_per_s: Math.round(deliveredInWindow / ((relay.ended_at - relay.started_at) / 1000)),
        last_delivery_after_load_end_s: secondsAfter(lastAt),
        unacknowledged_delivered: unacknowledged,
        deliveries_without_body_id: receiver.unknown,
        ratio_accepted_to_bare: bareResult.req_per_s
          ? Number((relay.accepted_per_s / bareResult.req_per_s).toFixed(3))
          : null,
        queues_at_load_end: atLoadEnd,
        queues_max_during_load: during.queues,
      },
      activity: {
        caught_up: act.caught_up,
        lag_s: act.caught_up ? secondsAfter(act.at) : null,
        bound_s: CATCHUP_TIMEOUT_S,
        queue_empty_after_s: secondsAfter(act.queue_empty_at),
        unwritten_metric: act.metric_present ? 'present' : 'absent (queue check only)',
        unwritten_zero_after_s: secondsAfter(act.unwritten_zero_at),
        sample_size: sample.length,
        sample_not_completed: act.sample_incomplete,
        sample_read_s: act.sample_read_s ?? null,
        list_first_page_ms: act.list_first_page_ms ?? null,
        last_probe: act.last,
      },
      dead_letters: deadLetters,
      service_warn_error_log_lines: logLines,
      warmup,
      resources: {
        cpu_pct_100_is_one_core: true,
        during_load: during.processes,
        machine_during_load: during.machine,
        cpu_pct_after_load_until_caught_up: drainCpu,
      },
      definitions: DEFINITIONS,
      namespace: ns.namespace,
    };
    progress('done; stopping the services');
    printTable(report);
    process.stdout.write(`${JSON.stringify(report)}\n`);
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    fs.writeFileSync(path.join(RESULTS_DIR, 'system.json'), `${JSON.stringify(report, null, 2)}\n`);
    if (lost > 0) {
      process.stderr.write(`system bench: ${lost} accepted event(s) never reached the receiver\n`);
      exitCode = 1;
    }
    if (act.caught_up && (act.sample_incomplete ?? 0) > 0) {
      process.stderr.write(
        `system bench: ${act.sample_incomplete} delivered event(s) have no Completed activity row after the log caught up\n`,
      );
      exitCode = 1;
    }
  } catch (err) {
    process.stderr.write(`bench/system failed: ${/** @type {Error} */ (err).stack || err}\n`);
    exitCode = 1;
  } finally {
    await teardown();
  }
  return exitCode;
}

/**
 * Service output (LOG_LEVEL=warn, so only warnings and errors) kept next to the results.
 * @param {Record<string, BenchProcess>} procs
 */
function writeLogs(procs, dir = path.join(RESULTS_DIR, 'system-logs')) {
  fs.mkdirSync(dir, { recursive: true });
  const noisy = [];
  for (const [name, p] of Object.entries(procs)) {
    const out = p.output();
    fs.writeFileSync(path.join(dir, `${name}.log`), out);
    const lines = out.split('\n').filter(Boolean).length;
    if (lines > 0) noisy.push(`${name} ${lines}`);
  }
  if (noisy.length)
    process.stderr.write(
      `system bench: warning/error log lines: ${noisy.join(', ')} (see ${path.relative(ROOT, dir)}/)\n`,
    );
}

/**
 * Deletes every queue and exchange of the namespace, its Redis keys and its database.
 * @param {Run} ns
 * @param {import('mongodb').MongoClient} mongoClient
 */
async function cleanup(ns, mongoClient) {
  try {
    await deleteBrokerNamespace(ns.rabbitmqUrl, ns.namespace);
  } catch (err) {
    process.stderr.write(`system bench: broker cleanup failed: ${/** @type {Error} */ (err).message}\n`);
  }
  const redis = new Redis(ns.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${ns.namespace}:*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } catch (err) {
    process.stderr.write(`system bench: redis cleanup failed: ${/** @type {Error} */ (err).message}\n`);
  } finally {
    redis.disconnect();
  }
  await mongoClient
    .db()
    .dropDatabase()
    .catch((/** @type {Error} */ err) =>
      process.stderr.write(`system bench: dropping database ${ns.namespace} failed: ${err.message}\n`),
    );
  await mongoClient.close().catch(() => undefined);
}

/** @param {any} r the report main builds (its shape is written once, there) */
function printTable(r) {
  const fmt = (/** @type {unknown} */ v) =>
    v === null || v === undefined ? '–' : typeof v === 'number' ? v.toLocaleString('en-US') : String(v);
  const row = (/** @type {unknown[]} */ cells, /** @type {number[]} */ widths) =>
    cells.map((c, i) => (i === 0 ? fmt(c).padEnd(widths[i]) : fmt(c).padStart(widths[i]))).join('  ');
  const w = [26, 10, 9, 9, 8, 7];
  const lines = [
    '',
    `whole system: ${r.load.connections} connections × ${r.load.duration_s} s (after ${r.load.warmup_s} s warm-up), ${r.load.body_bytes}-byte JSON POST, ${r.load.targets}`,
    row(['', 'per s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'], w),
    row(
      [
        'bare express before',
        r.bare_express.before.req_per_s,
        r.bare_express.before.p50_ms,
        r.bare_express.before.p99_ms,
        r.bare_express.before.non_2xx,
        r.bare_express.before.errors,
      ],
      w,
    ),
    row(
      [
        'bare express after',
        r.bare_express.after.req_per_s,
        r.bare_express.after.p50_ms,
        r.bare_express.after.p99_ms,
        r.bare_express.after.non_2xx,
        r.bare_express.after.errors,
      ],
      w,
    ),
    row(
      [
        'bare express (mean: baseline)',
        r.bare_express.req_per_s,
        r.bare_express.p50_ms,
        r.bare_express.p99_ms,
        r.bare_express.non_2xx,
        r.bare_express.errors,
      ],
      w,
    ),
    row(['relay accepted (202)', r.accepted_per_s, r.p50_ms, r.p99_ms, r.non_2xx, r.errors], w),
    row(['relay delivered', r.delivered_per_s, '', '', '', ''], w),
    row(['relay delivered during load', r.relay.delivered_during_load_per_s, '', '', '', ''], w),
    `ratio delivered/s ÷ bare express req/s: ${fmt(r.ratio)}   (accepted ÷ bare: ${fmt(r.relay.ratio_accepted_to_bare)})`,
    `events: accepted ${fmt(r.accepted)}, delivered ${fmt(r.delivered)}, lost ${fmt(r.lost)}, duplicates ${fmt(r.duplicates)}, delivered but unanswered (in flight at stop) ${fmt(r.relay.unacknowledged_delivered)}; last delivery ${fmt(r.relay.last_delivery_after_load_end_s)} s after load end`,
    `queues at load end: activity ${fmt(r.relay.queues_at_load_end.activity_ready)} ready, webhook ${fmt(r.relay.queues_at_load_end.webhook_ready)} ready (max during load ${fmt(r.relay.queues_max_during_load.activity_ready_max)} / ${fmt(r.relay.queues_max_during_load.webhook_ready_max)})`,
    r.activity.caught_up
      ? `activity log caught up ${fmt(r.activity.lag_s)} s after load end (queue empty after ${fmt(r.activity.queue_empty_after_s)} s; writer's unwritten gauge ${r.activity.unwritten_metric === 'present' ? `0 after ${fmt(r.activity.unwritten_zero_after_s)} s` : r.activity.unwritten_metric}; then ${r.activity.sample_size - r.activity.sample_not_completed} of the last ${r.activity.sample_size} delivered events read back as Completed, in ${fmt(r.activity.sample_read_s)} s; the endpoint's first list page in ${r.activity.list_first_page_ms} ms)`
      : `activity log NOT caught up within ${r.activity.bound_s} s of load end (last probe ${JSON.stringify(r.activity.last_probe)}; rows not all written)`,
    `dead-lettered: activity ${fmt(r.dead_letters.activity)}, webhook deliveries ${fmt(r.dead_letters.webhook)}; warn/error log lines: ${Object.entries(
      r.service_warn_error_log_lines,
    )
      .map(([n, v]) => `${n} ${v}`)
      .join(', ')}`,
    `warm-up: ${fmt(r.warmup.accepted)} accepted, ${r.warmup.drained ? `drained in ${r.warmup.drain_s} s` : `NOT drained after ${r.warmup.drain_s} s`}`,
    `CPU % / max RSS MB during load: ${Object.entries(r.resources.during_load)
      .map(([n, v]) => `${n} ${v.cpu_pct}%/${v.rss_mb_max}`)
      .join(', ')}`,
    `CPU stolen by the host (100% = one core): bare express before ${fmt(r.bare_express.before.steal_pct)}%, relay ${fmt(r.resources.machine_during_load.steal_pct)}%, bare express after ${fmt(r.bare_express.after.steal_pct)}% (after a ${fmt(r.bare_express.quiet_wait_s)} s wait for a quiet machine${!r.bare_express.quiet_reached ? `; NOT quiet at its bound, ${r.bare_express.quiet_busy_pct}% busy: the second baseline shared the machine` : ''})`,
    `machine during load: ${r.resources.machine_during_load.cores} cores, ${fmt(r.resources.machine_during_load.busy_pct)}% busy (100% = one core), of which stolen ${fmt(r.resources.machine_during_load.steal_pct)}%, other processes ${fmt(r.resources.machine_during_load.other_processes_pct)}%; load average ${r.resources.machine_during_load.loadavg_1m}` +
      (r.resources.machine_during_load.other_processes_pct > 25
        ? '  ← OTHER WORK ON THIS MACHINE: figures not comparable'
        : ''),
    `CPU % after load until caught up: ${Object.entries(r.resources.cpu_pct_after_load_until_caught_up)
      .map(([n, v]) => `${n} ${v}%`)
      .join(', ')}`,
    'definitions:',
    ...Object.entries(r.definitions).map(([k, v]) => `  ${k}: ${v}`),
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

/**
 * Both baselines' figures averaged: the denominator of the ratio.
 * @typedef {{ req_per_s: number; p50_ms: number | null; p99_ms: number | null; non_2xx: number; errors: number; steal_pct: number | null }} Baseline
 * @param {Baseline} a
 * @param {Baseline} b
 */
function meanBaseline(a, b) {
  const mean = (/** @type {'p50_ms' | 'p99_ms' | 'steal_pct'} */ k) =>
    a[k] === null || b[k] === null ? null : Math.round(((a[k] + b[k]) / 2) * 10) / 10;
  return {
    req_per_s: Math.round((a.req_per_s + b.req_per_s) / 2),
    p50_ms: mean('p50_ms'),
    p99_ms: mean('p99_ms'),
    non_2xx: a.non_2xx + b.non_2xx,
    errors: a.errors + b.errors,
    steal_pct: mean('steal_pct'),
  };
}

/** @type {() => Promise<void>} */
let teardown = async () => undefined;

// bench/tenants.js starts the same system the same way
module.exports = {
  SERVICES,
  newRun,
  serviceEnv,
  startSystem,
  healthPortOf,
  createProbes,
  waitActivity,
  createSampler,
  writeLogs,
  cleanup,
};

if (require.main === module) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      process.stderr.write(`system bench: ${signal}; stopping the services and deleting the namespace\n`);
      void teardown().finally(() => process.exit(130));
    });
  }
  void main().then((code) => process.exit(code));
}
