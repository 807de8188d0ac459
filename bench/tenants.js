// npm run bench (multi-tenant): the whole system as bench/system.js starts it (every service its
// own process, as scripts/start.sh runs them), loaded first on ONE endpoint from ONE source
// address and then, in the same run, on 10, 100, 500, 1,000 and 10,000 endpoints spread over
// BENCH_TENANT_ACCOUNTS accounts (10) from BENCH_TENANT_SOURCES loopback senders (1,000,
// 127.0.x.y), with a single-endpoint phase again between them: each spread phase is compared
// with the single-endpoint phases on either side of it, so a drift over the run (the hour's
// activity collections growing, a neighbour's load) is not read as a cost of spreading. Each endpoint has one webhook target on a local receiver that counts deliveries.
// Per phase: accepted/s, p99, the ratio to the single-endpoint phases beside it, delivered (nothing lost),
// activity lag, CPU ms per accepted event of each process, and the store reads per second of
// the gateway and the deliverers (relay_store_reads_total, the metric operators see).
//
//   BENCH_DURATION_S=20 BENCH_WARMUP_S=5 node bench/tenants.js
//   BENCH_TENANT_PHASES=1,10,100,1,500,1000,1,10000,1 (endpoint counts in order; 1 is the single-endpoint phase, from one address)
//   BENCH_DURATION_S=3 node bench/tenants.js   # short mode (test/bench/smoke.test.ts): phases 1 and 10
// Writes <results>/tenants.json; exits 1 if an accepted event was never delivered.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { MongoClient } = require('mongodb');
const { newId } = require('@relay/contracts');
const { makeBody, requestId, startReceiver, waitDelivered } = require('./receiver');
const { envNumber: num, infraPids, metricValue, runToCompletion, stopProcess } = require('./lib');
const { loadSpread, loopbackSources } = require('./spread-load');
const {
  SERVICES,
  newRun,
  serviceEnv,
  startSystem,
  createProbes,
  waitActivity,
  createSampler,
  writeLogs,
  cleanup,
} = require('./system');

const ROOT = path.resolve(__dirname, '..');
const DURATION_S = num(process.env.BENCH_DURATION_S, 20);
const SHORT = DURATION_S <= 5;
const WARMUP_S = num(process.env.BENCH_WARMUP_S, SHORT ? 1 : 5);
const CONNECTIONS = num(process.env.BENCH_CONNECTIONS, 64);
const ACCOUNTS = num(process.env.BENCH_TENANT_ACCOUNTS, 10);
const SOURCES = num(process.env.BENCH_TENANT_SOURCES, 1000);
const PHASES = (process.env.BENCH_TENANT_PHASES || (SHORT ? '1,10' : '1,10,100,1,500,1000,1,10000,1'))
  .split(',')
  .map(Number)
  .filter((n) => n >= 1);
const WAIT_S = SHORT ? 30 : 120;
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR || path.join(ROOT, 'bench-results');
const SAMPLE_SIZE = 20;
/** letters that may start a request id inside a JSON string: three per phase, so up to 17 phases */
const TAGS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
if (PHASES.length * 3 > TAGS.length)
  throw new Error(`BENCH_TENANT_PHASES: at most ${Math.floor(TAGS.length / 3)} phases`);
/** the processes whose store reads are counted: the caches of settings live there */
const READERS = ['ingest-gateway', 'webhook-deliverer', 'chat-deliverer'];

const T0 = Date.now();
const progress = (/** @type {string} */ msg) =>
  process.stderr.write(`tenants bench [${((Date.now() - T0) / 1000).toFixed(1)} s]: ${msg}\n`);

/**
 * One account and one endpoint with its webhook target through the management API (as a user
 * makes them: the target's secret sealed, the settings validated), then the rest cloned from
 * them straight into the store — 10,000 endpoints through the API would take minutes.
 * @param {import('./system').Run} ns
 * @param {Record<string, string>} env
 * @param {number} receiverPort
 * @param {import('mongodb').MongoClient} mongo
 * @param {number} maxEndpoints
 */
async function seed(ns, env, receiverPort, mongo, maxEndpoints) {
  const boot = JSON.parse(
    (
      await runToCompletion(
        path.join(ROOT, 'services/management-api/dist/bootstrap.js'),
        ['--account', 'bench', '--monthly-events', '1000000000'],
        env,
      )
    ).trim(),
  );
  const api = async (/** @type {string} */ p, /** @type {unknown} */ body) => {
    const res = await fetch(`http://127.0.0.1:${ns.ports['management-api']}${p}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${boot.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`POST ${p}: ${res.status} ${text}`);
    return JSON.parse(text);
  };
  const single = await api('/v1/endpoints', {
    name: 'single',
    methods: ['POST'],
    payload_format: 'json',
    inbound_auth: { type: 'NONE' },
    rate_limit_per_minute: 100000,
  });
  await api(`/v1/endpoints/${single.id}/targets`, {
    kind: 'webhook',
    name: 'bench receiver',
    config: { url: `http://127.0.0.1:${receiverPort}/hook`, enforce_https: false },
  });
  const db = mongo.db();
  // the store's own documents, copied as they are (string ids, as the store keeps them)
  const collection = (/** @type {string} */ name) =>
    /** @type {import('mongodb').Collection<{ _id: string; [field: string]: unknown }>} */ (db.collection(name));
  const account = await collection('accounts').findOne({ _id: boot.account_id });
  const endpoint = await collection('endpoints').findOne({ _id: single.id });
  const target = await collection('targets').findOne({ endpoint_id: single.id });
  const accounts = Array.from({ length: ACCOUNTS }, () => newId('acc'));
  await collection('accounts').insertMany(accounts.map((id, i) => ({ ...account, _id: id, name: `tenant ${i}` })));
  const endpoints = [];
  for (let from = 0; from < maxEndpoints; from += 1000) {
    const eps = [];
    const tgs = [];
    for (let i = from; i < Math.min(maxEndpoints, from + 1000); i++) {
      const id = newId('ep');
      const accountId = accounts[i % ACCOUNTS];
      eps.push({ ...endpoint, _id: id, account_id: accountId, name: `tenant endpoint ${i}` });
      tgs.push({ ...target, _id: newId('tg'), endpoint_id: id, account_id: accountId });
      endpoints.push(id);
    }
    await collection('endpoints').insertMany(eps);
    await collection('targets').insertMany(tgs);
  }
  return { single: single.id, endpoints, apiKey: boot.api_key };
}

/**
 * The servers' processes by name when scripts/infra.sh did not start them (no pid files): on a
 * shared machine the servers may be someone else's, and their CPU per event is still ours to see.
 */
function serverPids() {
  const found = infraPids();
  const byName =
    (/** @type {string[]} */ ...names) =>
    () =>
      fs
        .readdirSync('/proc')
        .filter((d) => /^\d+$/.test(d))
        .filter((d) => {
          try {
            return names.includes(fs.readFileSync(`/proc/${d}/comm`, 'utf8').trim());
          } catch {
            return false;
          }
        })
        .map(Number);
  found.store ??= byName('ferretdb', 'postgres');
  found.rabbitmq ??= byName('beam.smp');
  found.redis ??= byName('redis-server');
  return found;
}

/**
 * relay_store_reads_total of each reader process, summed over its labels.
 * @param {import('./system').Run} ns
 */
async function storeReads(ns) {
  /** @type {Record<string, number | null>} */
  const out = {};
  for (const name of READERS) {
    const port = ns.healthPorts[name] ?? ns.ports[name];
    const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
      (r) => (r.ok ? r.text() : ''),
      () => '',
    );
    out[name] = metricValue(text, 'relay_store_reads_total');
  }
  return out;
}

/**
 * Per accepted event, counted by the processes themselves (so not by how busy a shared machine
 * is): the gateway's broker messages (deliveries, activity batches, payload batches) and the
 * webhook deliverer's target-gate Redis script calls.
 */
const PER_EVENT_COUNTERS = /** @type {const} */ ([
  ['gateway_messages', 'ingest-gateway', 'relay_ingest_publishes_total'],
  ['deliverer_gate_calls', 'webhook-deliverer', 'relay_target_gate_calls_total'],
]);

/** @param {import('./system').Run} ns */
async function perEventCounters(ns) {
  /** @type {Record<string, number | null>} */
  const out = {};
  for (const [key, name, metric] of PER_EVENT_COUNTERS) {
    const port = ns.healthPorts[name] ?? ns.ports[name];
    const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
      (r) => (r.ok ? r.text() : ''),
      () => '',
    );
    out[key] = metricValue(text, metric);
  }
  return out;
}

/**
 * The activity-writer's flush counters: what one flush costs as rows spread over more endpoints, accounts and senders.
 * @param {import('./system').Run} ns
 */
async function writerFlushes(ns) {
  const text = await fetch(`http://127.0.0.1:${ns.ports['activity-writer']}/metrics`).then(
    (r) => (r.ok ? r.text() : ''),
    () => '',
  );
  return {
    flushes: metricValue(text, 'relay_activity_flushes_total'),
    seconds: metricValue(text, 'relay_activity_flush_seconds_total'),
    records: metricValue(text, 'relay_activity_records_written_total'),
  };
}

/**
 * Per flush from the measured load's start until the log caught up: records, wall ms, writer and store CPU ms.
 * @typedef {Awaited<ReturnType<typeof writerFlushes>>} Flushes
 * @param {Flushes} w0
 * @param {Flushes} w1
 * @param {Record<string, number>} cpuMs
 */
function perFlush(w0, w1, cpuMs) {
  const flushes = w1.flushes === null || w0.flushes === null ? null : w1.flushes - w0.flushes;
  if (!flushes) return null;
  const round = (/** @type {number} */ v) => Number(v.toFixed(2));
  return {
    flushes,
    records_per_flush: round((Number(w1.records) - Number(w0.records)) / flushes),
    wall_ms_per_flush: round(((Number(w1.seconds) - Number(w0.seconds)) * 1000) / flushes),
    writer_cpu_ms_per_flush: cpuMs['activity-writer'] === undefined ? null : round(cpuMs['activity-writer'] / flushes),
    store_cpu_ms_per_flush: cpuMs.store === undefined ? null : round(cpuMs.store / flushes),
  };
}

/**
 * What every phase shares: the run, its receiver and probes, the seeded ids, what was accepted.
 * @typedef {{ ns: import('./system').Run; receiver: import('./receiver').Receiver; probes: import('./system').Probes; ids: Awaited<ReturnType<typeof seed>>; accepted: Set<string>; pids: Record<string, number | (() => number[])>; api: import('./system').ActivityApi; sources: string[] }} PhaseContext
 */

/**
 * @param {PhaseContext} ctx
 * @param {number} count
 * @param {number} k
 */
async function runPhase(ctx, count, k) {
  const { ns, receiver, probes, ids, accepted, pids, api } = ctx;
  const endpoints = count === 1 ? [ids.single] : ids.endpoints.slice(0, count);
  const sources = count === 1 ? ['127.0.0.1'] : ctx.sources;
  // the receiver reads a 16-character request id: one letter each for the phase's (k-th) priming, warm-up and measured load
  const [primeTag, warmTag, measuredTag] = [0, 1, 2].map((i) => TAGS[3 * k + i]);
  const headers = { 'content-type': 'application/json' };
  const load = (/** @type {string} */ phase, /** @type {number} */ durationS, eachOnce = false) =>
    loadSpread({
      port: ns.ports['ingest-gateway'],
      endpoints,
      sources,
      connections: CONNECTIONS,
      durationS,
      headers,
      makeBody: (seq) => makeBody(requestId(phase, seq)),
      onAccepted: (seq) => accepted.add(requestId(phase, seq)),
      eachOnce,
    });

  progress(`${count} endpoint(s): one request to each, then ${WARMUP_S} s warm-up`);
  // warm-up: every endpoint once (the caches, told not timed, keep them: the measured load is
  // the steady state), then the phase's load, then drained
  await load(primeTag, WAIT_S, true);
  const warm = await load(warmTag, WARMUP_S);
  await waitDelivered(receiver, accepted, warm.ended_at + WAIT_S * 1000);
  await waitActivity(probes, api, [], warm.ended_at + WAIT_S * 1000);

  progress(`${count} endpoint(s): ${DURATION_S} s measured`);
  const reads0 = await storeReads(ns);
  const counts0 = await perEventCounters(ns);
  const w0 = await writerFlushes(ns);
  const sampler = createSampler(pids, probes);
  const cpuUntilCaughtUp = sampler.window();
  sampler.start();
  const r = await load(measuredTag, DURATION_S);
  const during = sampler.stop();
  const reads1 = await storeReads(ns);
  const seconds = (r.ended_at - r.started_at) / 1000;
  const lost = await waitDelivered(receiver, accepted, r.ended_at + WAIT_S * 1000);
  // read back through the bench account's key: only its endpoint's rows (the single phase) are visible to it
  const sample =
    count === 1
      ? receiver.order
          .filter((a) => a.id.startsWith(measuredTag))
          .slice(-SAMPLE_SIZE)
          .map((a) => a.eventId)
      : [];
  const act = await waitActivity(probes, api, sample, r.ended_at + WAIT_S * 1000);
  const caughtUpS = (Date.now() - r.started_at) / 1000;
  const cpuMs = Object.fromEntries(
    Object.entries(cpuUntilCaughtUp()).map(([name, pct]) => [name, (pct / 100) * caughtUpS * 1000]),
  );
  const flush = perFlush(w0, await writerFlushes(ns), cpuMs);
  // from the measured load's start until its deliveries and activity were done: every count the measured events caused
  const counts1 = await perEventCounters(ns);
  const perEvent = Object.fromEntries(
    PER_EVENT_COUNTERS.map(([key]) => [
      key,
      counts0[key] === null || counts1[key] === null || !r.accepted
        ? null
        : Number(/** @type {number} */ ((counts1[key] - /** @type {number} */ (counts0[key])) / r.accepted).toFixed(3)),
    ]),
  );
  const cpuMsPerEvent = Object.fromEntries(
    Object.entries(during.processes).map(([name, p]) => [
      name,
      r.accepted ? Number((((p.cpu_pct / 100) * seconds * 1000) / r.accepted).toFixed(3)) : null,
    ]),
  );
  const readsPerS = Object.fromEntries(
    READERS.map((n) => [
      n,
      reads0[n] === null || reads1[n] === null ? null : Number(((reads1[n] - reads0[n]) / seconds).toFixed(2)),
    ]),
  );
  return {
    endpoints: count,
    accounts: count === 1 ? 1 : Math.min(count, ACCOUNTS),
    endpoints_used: r.endpoints_used,
    sources_used: r.sources_used,
    accepted_per_s: r.accepted_per_s,
    p50_ms: r.p50_ms,
    p99_ms: r.p99_ms,
    non_2xx: r.non_2xx,
    statuses: r.statuses,
    errors: r.errors,
    lost_so_far: lost,
    activity_lag_s: act.caught_up ? Number(((Number(act.at) - r.ended_at) / 1000).toFixed(2)) : null,
    activity_sample_not_completed: act.caught_up && count === 1 ? act.sample_incomplete : null,
    store_reads_per_s: readsPerS,
    activity_flush: flush,
    cpu_ms_per_event: cpuMsPerEvent,
    per_event: perEvent,
    machine: during.machine,
  };
}

async function main() {
  const ns = await newRun('bench_ten');
  const env = serviceEnv(ns);
  /** @type {Record<string, import('./system').BenchProcess>} */
  const procs = {};
  const probes = createProbes(ns);
  const mongo = new MongoClient(ns.mongodbUrl);
  /** @type {import('./receiver').Receiver | null} */
  let receiver = null;
  let exitCode = 0;
  /** @type {Promise<void> | null} */
  let done = null;
  teardown = () =>
    (done ??= (async () => {
      await Promise.all(Object.values(procs).map((p) => stopProcess(p)));
      writeLogs(procs, path.join(RESULTS_DIR, 'tenants-logs'));
      await probes.close();
      await cleanup(ns, mongo);
      if (receiver) {
        if (receiver.child.connected) receiver.child.disconnect();
        await receiver.child.exited;
      }
    })());
  try {
    receiver = await startReceiver();
    progress('starting the services');
    await startSystem(ns, env, procs);
    progress(`seeding ${Math.max(...PHASES)} endpoints over ${ACCOUNTS} accounts`);
    const ids = await seed(ns, env, receiver.port, mongo, Math.max(...PHASES));
    const apiGet = (/** @type {string} */ p) =>
      fetch(`http://127.0.0.1:${ns.ports['management-api']}${p}`, {
        headers: { authorization: `Bearer ${ids.apiKey}` },
      });
    /** @type {import('./system').ActivityApi} */
    const api = {
      rowStatus: (id) =>
        apiGet(`/v1/activity/${id}`)
          .then((r) => (r.status === 200 ? /** @type {Promise<{ status: string }>} */ (r.json()) : null))
          .then(
            (row) => row?.status ?? null,
            () => null,
          ),
      firstListPage: () => apiGet(`/v1/activity?endpoint_id=${ids.single}&limit=50`).then((r) => r.text()),
    };
    /** @type {Record<string, number | (() => number[])>} */
    const pids = Object.fromEntries(SERVICES.map((s) => [s.name, /** @type {number} */ (procs[s.name].pid)]));
    Object.assign(pids, { receiver: receiver.child.pid, 'load generator': process.pid }, serverPids());
    const ctx = { ns, receiver, probes, ids, accepted: new Set(), pids, api, sources: loopbackSources(SOURCES) };
    /** @type {Phase[]} */
    const phases = [];
    for (const [k, count] of PHASES.entries()) phases.push(await runPhase(ctx, count, k));
    const lost = await waitDelivered(receiver, ctx.accepted, Date.now() + WAIT_S * 1000);
    for (const [k, p] of phases.entries()) p.ratio_to_single = ratioToSingles(phases, k);
    const report = {
      bench: 'tenants',
      at: new Date().toISOString(),
      load: {
        generator:
          'bench/spread-load.js (closed loop, random endpoint per request, a new source address every 10 requests per connection)',
        connections: CONNECTIONS,
        duration_s: DURATION_S,
        warmup_s: WARMUP_S,
        accounts: ACCOUNTS,
        sources: SOURCES,
        body_bytes: Buffer.byteLength(makeBody(requestId('m', 0))),
        targets: '1 webhook per endpoint (local receiver answering 200 at once)',
      },
      phases,
      accepted: ctx.accepted.size,
      delivered: receiver.byId.size,
      lost,
      duplicates: receiver.duplicates,
      namespace: ns.namespace,
    };
    printTable(report);
    process.stdout.write(`${JSON.stringify(report)}\n`);
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    fs.writeFileSync(path.join(RESULTS_DIR, 'tenants.json'), `${JSON.stringify(report, null, 2)}\n`);
    if (lost > 0) {
      process.stderr.write(`tenants bench: ${lost} accepted event(s) never reached the receiver\n`);
      exitCode = 1;
    }
  } catch (err) {
    process.stderr.write(`bench/tenants failed: ${/** @type {Error} */ (err).stack || err}\n`);
    exitCode = 1;
  } finally {
    await teardown();
  }
  return exitCode;
}

/**
 * A phase's accepted/s over the mean of the single-endpoint phases nearest before and after it
 * (one of them at the run's ends); 1 for a single-endpoint phase itself.
 * @typedef {Awaited<ReturnType<typeof runPhase>> & { ratio_to_single?: number | null }} Phase
 * @param {Phase[]} phases
 * @param {number} k
 */
function ratioToSingles(phases, k) {
  if (phases[k].endpoints === 1) return 1;
  const before = phases
    .slice(0, k)
    .reverse()
    .find((p) => p.endpoints === 1);
  const after = phases.slice(k + 1).find((p) => p.endpoints === 1);
  const singles = [before, after].filter((p) => p && p.accepted_per_s);
  if (singles.length === 0) return null;
  const mean = singles.reduce((sum, p) => sum + /** @type {Phase} */ (p).accepted_per_s, 0) / singles.length;
  return Number((phases[k].accepted_per_s / mean).toFixed(3));
}

/** @param {any} r the report main builds (its shape is written once, there) */
function printTable(r) {
  const fmt = (/** @type {unknown} */ v) =>
    v === null || v === undefined ? '–' : typeof v === 'number' ? v.toLocaleString('en-US') : String(v);
  const cpuOf = (/** @type {Phase} */ p) =>
    ['ingest-gateway', 'webhook-deliverer', 'activity-writer', 'store', 'rabbitmq', 'redis']
      .filter((n) => p.cpu_ms_per_event[n] !== undefined)
      .map((n) => `${n} ${p.cpu_ms_per_event[n]}`)
      .join(' / ');
  const readsOf = (/** @type {Phase} */ p) => READERS.map((n) => fmt(p.store_reads_per_s[n])).join(' / ');
  const lines = [
    '',
    `multi-tenant: ${r.load.connections} connections × ${r.load.duration_s} s per phase (after ${r.load.warmup_s} s warm-up), ${r.load.body_bytes}-byte JSON POST, ${r.load.targets}; endpoints over ${r.load.accounts} accounts from ${r.load.sources} source addresses (phase 1: one endpoint, one address)`,
    'endpoints  accepted/s  ×single  p99 ms  activity lag s  store reads/s gateway / webhook / chat deliverer  CPU ms per event',
    ...r.phases.map(
      (/** @type {Phase} */ p) =>
        `${fmt(p.endpoints).padStart(9)}  ${fmt(p.accepted_per_s).padStart(10)}  ${fmt(p.ratio_to_single).padStart(7)}  ${fmt(p.p99_ms).padStart(6)}  ${fmt(p.activity_lag_s).padStart(14)}  ${readsOf(p).padStart(20)}  ${cpuOf(p)}`,
    ),
    'activity-writer per flush (measured load until caught up): records, wall ms, writer CPU ms, store CPU ms',
    ...r.phases.map(
      (/** @type {Phase} */ p) =>
        `${fmt(p.endpoints).padStart(9)}  ${p.activity_flush ? [p.activity_flush.records_per_flush, p.activity_flush.wall_ms_per_flush, p.activity_flush.writer_cpu_ms_per_flush, p.activity_flush.store_cpu_ms_per_flush].map(fmt).join(' / ') : '–'}`,
    ),
    'per accepted event (counted by the processes, measured load until caught up): gateway broker messages / webhook deliverer gate Redis calls',
    ...r.phases.map(
      (/** @type {Phase} */ p) =>
        `${fmt(p.endpoints).padStart(9)}  ${fmt(p.per_event.gateway_messages)} / ${fmt(p.per_event.deliverer_gate_calls)}`,
    ),
    `events: accepted ${fmt(r.accepted)}, delivered ${fmt(r.delivered)}, lost ${fmt(r.lost)}, duplicates ${fmt(r.duplicates)}`,
    `machine per phase (100% = one core; other processes = work not ours on a shared machine): ${r.phases.map((/** @type {Phase} */ p) => `${p.endpoints}: busy ${fmt(p.machine.busy_pct)}%, other ${fmt(p.machine.other_processes_pct)}%`).join('; ')}`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

/** @type {() => Promise<void>} */
let teardown = async () => undefined;

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    process.stderr.write(`tenants bench: ${signal}; stopping the services and deleting the namespace\n`);
    void teardown().finally(() => process.exit(130));
  });
}
void main().then((code) => process.exit(code));
