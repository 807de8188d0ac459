// Shared helpers of the bench scripts: child processes, readiness, autocannon runs, /proc samples.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { freePort } = require('./free-port');

/**
 * A child process started by startProcess: its output so far and a promise of its exit.
 * @typedef {import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, import('node:stream').Readable> & { output(): string; exited: Promise<number | null> }} BenchProcess
 */
/** @typedef {{ cpu_s: number; rss_bytes: number }} ProcSample */
/** @typedef {{ busy: number; total: number; steal: number }} MachineCpu */

/**
 * Children still running. A bench that dies without a signal (an uncaught error, or EPIPE when
 * whatever reads its output goes away) still runs its 'exit' handlers: they kill these, so no
 * service outlives the bench holding ports and consuming a namespace nobody deletes.
 */
/** @type {Set<BenchProcess>} */
const running = new Set();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
// A signal ends a process without its 'exit' handlers: a bench with no handler of its own (the smoke
// test's time limit sends SIGTERM) exits through them instead, so its services do not outlive it.
// A bench with its own handler (system.js, tenants.js: they also delete the namespace) keeps it.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    if (process.listenerCount(signal) === 1) process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/**
 * Starts `node <nodeArgs> <file>` with PATH and `env` only, its output kept.
 * @param {string} file
 * @param {Record<string, string | undefined>} env
 * @param {string[]} [nodeArgs]
 * @returns {BenchProcess}
 */
function startProcess(file, env, nodeArgs = []) {
  return startProgram(process.execPath, [...nodeArgs, file], env);
}

/**
 * Starts `command <args>` with PATH and `env` only, its output kept, killed with the bench.
 * @param {string} command
 * @param {string[]} args
 * @param {Record<string, string | undefined>} env
 * @returns {BenchProcess}
 */
function startProgram(command, args, env) {
  const spawned = spawn(command, args, {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  spawned.stdout.on('data', (d) => (out += d));
  spawned.stderr.on('data', (d) => (out += d));
  const child = Object.assign(spawned, {
    output: () => out,
    exited: new Promise((/** @type {(code: number | null) => void} */ resolve) => spawned.once('exit', resolve)),
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/**
 * Waits until `url` answers below 500.
 * @param {string} url
 */
async function waitFor(url, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not ready: ${url}`);
}

/**
 * Closed-loop load: `connections` keep-alive clients each send the next request on reply.
 * @param {string} url
 * @param {{ connections: number; durationS: number; body: string | Buffer; headers: Record<string, string> }} opts
 */
async function load(url, { connections, durationS, body, headers }) {
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: durationS,
    body,
    headers,
    pipelining: 1,
  });
  const ok = result['2xx'];
  return {
    accepted_per_s: Math.round(ok / durationS),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    requests: result.requests.total,
    non_2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * Waits until `url` answers 200 (a readiness probe), failing at once if `child` exited meanwhile.
 * @param {string} url
 * @param {import('node:child_process').ChildProcess} child
 */
async function waitReady(url, child, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`exited (${child.exitCode ?? child.signalCode}) before ${url} was ready`);
    const ok = await fetch(url).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not ready after ${timeoutMs} ms: ${url}`);
}

/**
 * SIGTERM, then SIGKILL if the process has not exited after `graceMs`. Resolves when it exited.
 * @param {BenchProcess} child
 */
async function stopProcess(child, graceMs = 20000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

/**
 * The p-th percentile of ascending `sorted` (nearest rank), null when it is empty.
 * @param {readonly number[]} sorted
 * @param {number} p
 * @returns {number | null}
 */
const percentile = (sorted, p) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * Closed-loop load like `load`, but every request gets its own body from `makeBody(seq)` and
 * every 2xx is reported to `onAccepted(seq)`, so a bench can tell which requests were accepted.
 * Latency percentiles are of the 2xx responses only; other statuses are counted by code.
 * @param {string} url
 * @param {{ connections: number; durationS: number; headers: Record<string, string>; makeBody(seq: number): string | Buffer; onAccepted?(seq: number): void }} opts
 */
async function loadTracked(url, { connections, durationS, headers, makeBody, onAccepted = () => undefined }) {
  const { pathname, search } = new URL(url);
  let seq = 0;
  /** @type {number[]} */
  const latencies = [];
  /** @type {Record<number, number>} */
  const statuses = {};
  const startedAt = Date.now();
  const instance = autocannon({
    url,
    connections,
    duration: durationS,
    pipelining: 1,
    requests: [
      {
        method: 'POST',
        path: pathname + search,
        headers,
        // autocannon gives each connection a context: the seq of its one outstanding request
        setupRequest: (req, context) => {
          context.seq = seq++;
          return { ...req, body: makeBody(/** @type {number} */ (context.seq)) };
        },
        onResponse: (status, _body, context) => {
          if (status >= 200 && status < 300) onAccepted(/** @type {number} */ (context.seq));
        },
      },
    ],
  });
  instance.on('response', (_client, status, _bytes, responseTime) => {
    statuses[status] = (statuses[status] || 0) + 1;
    if (status >= 200 && status < 300) latencies.push(responseTime);
  });
  const result = await instance;
  const endedAt = Date.now();
  latencies.sort((a, b) => a - b);
  const round = (/** @type {number | null} */ v) => (v === null ? null : Number(v.toFixed(1)));
  return {
    accepted: result['2xx'],
    accepted_per_s: Math.round(result['2xx'] / durationS),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
    requests: result.requests.total,
    non_2xx: result.non2xx,
    statuses,
    errors: result.errors + result.timeouts,
    started_at: startedAt,
    ended_at: endedAt,
  };
}

/** @type {(name: string, def: number) => number} */
const getconf = (name, def) => {
  try {
    return Number(execFileSync('getconf', [name], { encoding: 'utf8' }).trim()) || def;
  } catch {
    return def;
  }
};
/** A number from the environment, or `def` when the variable is unset, empty or not a number. */
/** @type {(v: string | undefined, def: number) => number} */
const envNumber = (v, def) => (v === undefined || v === '' || !Number.isFinite(Number(v)) ? def : Number(v));

/**
 * The pid in `.infra/<file>` (scripts/infra.sh's servers) if that process runs; else null (not provisioned by infra.sh, e.g. URLs pointing elsewhere).
 * @param {string} file
 */
function infraPid(file) {
  try {
    const pid = Number(fs.readFileSync(path.join(__dirname, '..', '.infra', file), 'utf8').replace(/\D/g, ''));
    return pid && procSample(pid) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * What to sample of the local servers `scripts/infra.sh up` started, when it did (read-only): a
 * pid, or for the store a function giving FerretDB's pid and PostgreSQL's processes (its default
 * backend runs one per connection), summed as "store".
 */
function infraPids() {
  /** @type {Record<string, number | (() => number[])>} */
  const out = {};
  for (const [name, file] of [
    ['rabbitmq', 'rabbitmq/rabbitmq.pid'],
    ['redis', 'redis/redis.pid'],
  ]) {
    const pid = infraPid(file);
    if (pid) out[name] = pid;
  }
  const ferretdb = infraPid(`ferretdb-${process.env.FERRETDB_BACKEND || 'postgresql'}/ferretdb.pid`);
  if (ferretdb) out.store = () => [ferretdb, ...postgresPids()];
  return out;
}

/** Every PostgreSQL process on the machine (infra.sh's cluster is the only one it runs). */
function postgresPids() {
  /** @type {number[]} */
  const pids = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/**
 * CPU of a group of processes summed, and the RSS of its largest (PostgreSQL's processes share
 * their buffers: a sum would count them once per process). A process that exits keeps the CPU it
 * had at its last sample in the group's sum (`seen`), so the figure never goes down when one of
 * the machine's PostgreSQL backends ends between two samples.
 * @param {readonly number[]} pidList
 * @param {Map<number, number>} seen  each pid's CPU seconds at its last sample
 * @returns {ProcSample | null}
 */
function sumSamples(pidList, seen) {
  let rss = 0;
  let any = false;
  for (const pid of pidList) {
    const s = procSample(pid);
    if (!s) continue;
    any = true;
    seen.set(pid, Math.max(seen.get(pid) ?? 0, s.cpu_s));
    rss = Math.max(rss, s.rss_bytes);
  }
  let cpu = 0;
  for (const v of seen.values()) cpu += v;
  return any ? { cpu_s: cpu, rss_bytes: rss } : null;
}

/** @type {WeakMap<() => number[], Map<number, number>>} */
const groups = new WeakMap();

/**
 * procSample of a pid, or sumSamples of a function's pids (infraPids' store).
 * @param {number | (() => number[])} pid
 */
function sampleOf(pid) {
  if (typeof pid !== 'function') return procSample(pid);
  let seen = groups.get(pid);
  if (!seen) groups.set(pid, (seen = new Map()));
  return sumSamples(pid(), seen);
}

/** @type {{ clockTicks: number; pageSize: number } | null} */
let sysconf = null;
/**
 * CPU time (s) and resident set (bytes) of a process from /proc/<pid>/stat; null if it is gone.
 * @param {number} pid
 * @returns {ProcSample | null}
 */
function procSample(pid) {
  sysconf ??= { clockTicks: getconf('CLK_TCK', 100), pageSize: getconf('PAGESIZE', 4096) };
  const { clockTicks, pageSize } = sysconf;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces; fields after its closing parenthesis are fixed
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { cpu_s: (Number(f[11]) + Number(f[12])) / clockTicks, rss_bytes: Number(f[21]) * pageSize };
  } catch {
    return null;
  }
}

/**
 * Runs a node script to its end; resolves with its stdout, rejects with its stderr on a non-zero exit.
 * @param {string} file
 * @param {string[]} args
 * @param {Record<string, string | undefined>} env
 * @returns {Promise<string>}
 */
function runToCompletion(file, args, env) {
  const child = spawn(process.execPath, [file, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${path.basename(file)} exited ${code}: ${err}`)),
    );
  });
}

/**
 * Busy and total CPU time of the whole machine (all cores), from /proc/stat, in clock ticks.
 * `steal`: time a virtual machine's cores were runnable but the host ran something else (a
 * share of busy): on a shared host it moves from run to run and takes speed from whatever ran then.
 * @returns {MachineCpu | null}
 */
function machineCpu() {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - (f[3] ?? 0) - (f[4] || 0), total, steal: f[7] || 0 };
  } catch {
    return null;
  }
}

/**
 * The machine's busy and stolen CPU between two machineCpu() readings, in % (100 = one core).
 * @param {MachineCpu | null} m0
 * @param {MachineCpu | null} m1
 * @returns {{ busy_pct: number | null; steal_pct: number | null }}
 */
function machineWindow(m0, m1) {
  if (!m0 || !m1 || m1.total === m0.total) return { busy_pct: null, steal_pct: null };
  const cores = os.cpus().length;
  const pct = (/** @type {number} */ a, /** @type {number} */ b) =>
    Math.round(((b - a) / (m1.total - m0.total)) * 100 * cores);
  return { busy_pct: pct(m0.busy, m1.busy), steal_pct: pct(m0.steal, m1.steal) };
}

/** Busier than this (100 = one core), the machine is still working on a previous step. */
const QUIET_BELOW_PCT = 30;

/**
 * Waits (at most maxS) until the machine was quiet for a whole second: what a previous step
 * left the store and the writer (PostgreSQL's autovacuum after a burst of inserts, held pages)
 * is done before the next measurement. `reached` is false when the bound came first.
 * @param {number} maxS
 */
async function waitQuiet(maxS) {
  const t0 = Date.now();
  /** @type {number | null} */
  let busy = null;
  const quiet = () => busy !== null && busy < QUIET_BELOW_PCT;
  while (Date.now() - t0 < maxS * 1000 && !quiet()) {
    const m0 = machineCpu();
    await new Promise((r) => setTimeout(r, 1000));
    busy = machineWindow(m0, machineCpu()).busy_pct;
  }
  return { waited_s: Number(((Date.now() - t0) / 1000).toFixed(1)), busy_pct: busy, reached: quiet() };
}

/**
 * The sum of a metric's samples in Prometheus text format; null when the metric is absent.
 * @param {string} text
 * @param {string} name
 */
function metricValue(text, name) {
  let found = false;
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    let rest = line.slice(name.length);
    if (rest[0] === '{') rest = rest.slice(rest.indexOf('}') + 1);
    else if (rest[0] !== ' ') continue;
    const value = Number(rest.trim().split(/\s+/)[0]);
    if (Number.isFinite(value)) {
      found = true;
      sum += value;
    }
  }
  return found ? sum : null;
}

/**
 * Deletes every queue and exchange of a namespace: the ones @relay/contracts names, plus any
 * `<namespace>.*` the RabbitMQ management API lists (retry tiers depend on RETRY_TIERS_MS).
 * @param {string} rabbitmqUrl
 * @param {string} namespace
 */
async function deleteBrokerNamespace(rabbitmqUrl, namespace) {
  const amqp = require('amqplib');
  const { brokerNames, DELIVERY_CHANNELS } = require('@relay/contracts');
  const n = brokerNames(namespace);
  const queues = new Set([
    n.activityQueue,
    n.deadActivityQueue,
    n.payloadQueue,
    ...DELIVERY_CHANNELS.flatMap((c) => [n.deliveryQueue(c), n.deadDeliveryQueue(c)]),
  ]);
  const exchanges = new Set([n.deliveriesExchange, n.activityExchange, n.deadLetterExchange, n.retryExchange]);
  const u = new URL(rabbitmqUrl);
  const auth = `Basic ${Buffer.from(`${decodeURIComponent(u.username || 'guest')}:${decodeURIComponent(u.password || 'guest')}`).toString('base64')}`;
  const mgmt = process.env.RABBITMQ_MANAGEMENT_URL || `http://${u.hostname}:15672`;
  for (const [kind, set] of /** @type {const} */ ([
    ['queues', queues],
    ['exchanges', exchanges],
  ])) {
    const list = /** @type {{ name: string }[]} */ (
      await fetch(`${mgmt}/api/${kind}?columns=name`, { headers: { authorization: auth } }).then(
        (r) => (r.ok ? r.json() : []),
        () => [],
      )
    );
    for (const { name } of list) if (name.startsWith(`${namespace}.`)) set.add(name);
  }
  const conn = await amqp.connect(rabbitmqUrl);
  try {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    for (const q of queues) await ch.deleteQueue(q).catch(() => undefined);
    for (const e of exchanges) await ch.deleteExchange(e).catch(() => undefined);
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/**
 * Writes a bench's results as `<name>.json` in BENCH_RESULTS_DIR (the smoke test gives each run
 * a directory of its own), else bench-results/ at the repository root.
 * @param {string} name
 * @param {unknown} report
 */
function writeResults(name, report) {
  const dir = process.env.BENCH_RESULTS_DIR || path.join(__dirname, '..', 'bench-results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
}

/**
 * The TCP port a listening server is bound to.
 * @param {import('node:net').Server} server
 */
function portOf(server) {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server is not listening on a TCP port');
  return address.port;
}

/**
 * p50/p95 of `runs` calls of each `GET /v1/activity` query (limit 50) through a management API;
 * every third call follows the previous call's cursor, as "Search older" and deep pages do, so
 * deep pages are timed too.
 * @param {number} apiPort
 * @param {string} apiKey
 * @param {[string, string][]} queries name and query string
 * @param {number} runs
 * @returns {Promise<{ name: string; p50_ms: number; p95_ms: number; mean_rows: number }[]>}
 */
async function timeActivityQueries(apiPort, apiKey, queries, runs) {
  const results = [];
  for (const [name, query] of queries) {
    /** @type {number[]} */
    const times = [];
    let rows = 0;
    let cursor = null;
    for (let run = 0; run < runs; run++) {
      const url = `http://127.0.0.1:${apiPort}/v1/activity?${query}&limit=50${run % 3 === 2 && cursor ? `&cursor=${cursor}` : ''}`;
      const t0 = performance.now();
      const res = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
      const body = /** @type {{ data: unknown[]; next_cursor: string | null }} */ (await res.json());
      times.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status} ${JSON.stringify(body)}`);
      rows += body.data.length;
      cursor = body.next_cursor;
    }
    times.sort((a, b) => a - b);
    const ms = (/** @type {number} */ p) => Number(/** @type {number} */ (percentile(times, p)).toFixed(1));
    results.push({ name, p50_ms: ms(50), p95_ms: ms(95), mean_rows: Number((rows / runs).toFixed(1)) });
  }
  return results;
}

module.exports = {
  portOf,
  timeActivityQueries,
  writeResults,
  deleteBrokerNamespace,
  envNumber,
  infraPid,
  infraPids,
  freePort,
  startProcess,
  startProgram,
  runToCompletion,
  waitFor,
  waitReady,
  stopProcess,
  load,
  loadTracked,
  procSample,
  sampleOf,
  machineCpu,
  machineWindow,
  metricValue,
  percentile,
  waitQuiet,
};
