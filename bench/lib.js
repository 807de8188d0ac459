// Shared helpers of the bench scripts: child processes, readiness, autocannon runs, /proc samples.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const net = require('node:net');
const path = require('node:path');
const autocannon = require('autocannon');

/**
 * A port no one listens on, below the kernel's ephemeral range: a port listen(0) handed out can be
 * handed out again as the source port of an outbound connection before the service binds it
 * (a fresh CI machine hit exactly that). Same rule as test/support/services.ts.
 */
async function freePort() {
  let low = 32768;
  try {
    const n = Number(require('node:fs').readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(n) && n > 21000) low = n;
  } catch {
    // not Linux: the usual default
  }
  for (let tries = 0; tries < 50; tries++) {
    const port = 20000 + Math.floor(Math.random() * (low - 1 - 20000));
    const free = await new Promise((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port found below the ephemeral range in 50 tries');
}

/**
 * Children still running. A bench that dies without a signal (an uncaught error, or EPIPE when
 * whatever reads its output goes away) still runs its 'exit' handlers: they kill these, so no
 * service outlives the bench holding ports and consuming a namespace nobody deletes.
 */
const running = new Set();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function startProcess(file, env, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, file], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  child.output = () => out;
  child.exited = new Promise((resolve) => child.once('exit', resolve));
  child.once('exit', () => running.delete(child));
  return child;
}

async function waitFor(url, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then((r) => r.status < 500, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not ready: ${url}`);
}

/** Closed-loop load: `connections` keep-alive clients each send the next request on reply. */
async function load(url, { connections, durationS, body, headers }) {
  const result = await autocannon({ url, method: 'POST', connections, duration: durationS, body, headers, pipelining: 1 });
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

/** Waits until `url` answers 200 (a readiness probe), failing at once if `child` exited meanwhile. */
async function waitReady(url, child, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited (${child.exitCode ?? child.signalCode}) before ${url} was ready`);
    const ok = await fetch(url).then((r) => r.status === 200, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not ready after ${timeoutMs} ms: ${url}`);
}

/** SIGTERM, then SIGKILL if the process has not exited after `graceMs`. Resolves when it exited. */
async function stopProcess(child, graceMs = 20000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

const percentile = (sorted, p) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);

/**
 * Closed-loop load like `load`, but every request gets its own body from `makeBody(seq)` and
 * every 2xx is reported to `onAccepted(seq)`, so a bench can tell which requests were accepted.
 * Latency percentiles are of the 2xx responses only; other statuses are counted by code.
 */
async function loadTracked(url, { connections, durationS, headers, makeBody, onAccepted = () => undefined }) {
  const { pathname, search } = new URL(url);
  let seq = 0;
  const latencies = [];
  const statuses = {};
  const startedAt = Date.now();
  const instance = autocannon({
    url,
    connections,
    duration: durationS,
    pipelining: 1,
    requests: [{
      method: 'POST',
      path: pathname + search,
      headers,
      // autocannon gives each connection a context: the seq of its one outstanding request
      setupRequest: (req, context) => {
        context.seq = seq++;
        return { ...req, body: makeBody(context.seq) };
      },
      onResponse: (status, _body, context) => {
        if (status >= 200 && status < 300) onAccepted(context.seq);
      },
    }],
  });
  instance.on('response', (_client, status, _bytes, responseTime) => {
    statuses[status] = (statuses[status] || 0) + 1;
    if (status >= 200 && status < 300) latencies.push(responseTime);
  });
  const result = await instance;
  const endedAt = Date.now();
  latencies.sort((a, b) => a - b);
  const round = (v) => (v === null ? null : Number(v.toFixed(1)));
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

const getconf = (name, def) => {
  try {
    return Number(execFileSync('getconf', [name], { encoding: 'utf8' }).trim()) || def;
  } catch {
    return def;
  }
};
/** A number from the environment, or `def` when the variable is unset, empty or not a number. */
const envNumber = (v, def) => (v === undefined || v === '' || !Number.isFinite(Number(v)) ? def : Number(v));

/** The pid in `.infra/<file>` (scripts/infra.sh's servers) if that process runs; else null (not provisioned by infra.sh, e.g. URLs pointing elsewhere). */
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
  const out = {};
  for (const [name, file] of [['rabbitmq', 'rabbitmq/rabbitmq.pid'], ['redis', 'redis/redis.pid']]) {
    const pid = infraPid(file);
    if (pid) out[name] = pid;
  }
  const ferretdb = infraPid(`ferretdb-${process.env.FERRETDB_BACKEND || 'postgresql'}/ferretdb.pid`);
  if (ferretdb) out.store = () => [ferretdb, ...postgresPids()];
  return out;
}

/** Every PostgreSQL process on the machine (infra.sh's cluster is the only one it runs). */
function postgresPids() {
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
 * their buffers: a sum would count them once per process). A process that exited between two
 * samples drops out of the CPU figure.
 */
function sumSamples(pidList) {
  let cpu = 0;
  let rss = 0;
  let any = false;
  for (const pid of pidList) {
    const s = procSample(pid);
    if (!s) continue;
    any = true;
    cpu += s.cpu_s;
    rss = Math.max(rss, s.rss_bytes);
  }
  return any ? { cpu_s: cpu, rss_bytes: rss } : null;
}

/** procSample of a pid, or sumSamples of a function's pids (infraPids' store). */
function sampleOf(pid) {
  return typeof pid === 'function' ? sumSamples(pid()) : procSample(pid);
}

let clockTicks = null;
let pageSize = null;
/** CPU time (s) and resident set (bytes) of a process from /proc/<pid>/stat; null if it is gone. */
function procSample(pid) {
  if (clockTicks === null) {
    clockTicks = getconf('CLK_TCK', 100);
    pageSize = getconf('PAGESIZE', 4096);
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces; fields after its closing parenthesis are fixed
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { cpu_s: (Number(f[11]) + Number(f[12])) / clockTicks, rss_bytes: Number(f[21]) * pageSize };
  } catch {
    return null;
  }
}

/** Runs a node script to its end; resolves with its stdout, rejects with its stderr on a non-zero exit. */
function runToCompletion(file, args, env) {
  const child = spawn(process.execPath, [file, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${path.basename(file)} exited ${code}: ${err}`))));
  });
}

/**
 * Busy and total CPU time of the whole machine (all cores), from /proc/stat, in clock ticks.
 * `steal`: time a virtual machine's cores were runnable but the host ran something else (a
 * share of busy): on a shared host it moves from run to run and takes speed from whatever ran then.
 */
function machineCpu() {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - f[3] - (f[4] || 0), total, steal: f[7] || 0 };
  } catch {
    return null;
  }
}

/** The machine's busy and stolen CPU between two machineCpu() readings, in % (100 = one core). */
function machineWindow(m0, m1) {
  if (!m0 || !m1 || m1.total === m0.total) return { busy_pct: null, steal_pct: null };
  const cores = os.cpus().length;
  const pct = (a, b) => Math.round(((b - a) / (m1.total - m0.total)) * 100 * cores);
  return { busy_pct: pct(m0.busy, m1.busy), steal_pct: pct(m0.steal, m1.steal) };
}

/** Busier than this (100 = one core), the machine is still working on a previous step. */
const QUIET_BELOW_PCT = 30;

/**
 * Waits (at most maxS) until the machine was quiet for a whole second: what a previous step
 * left the store and the writer (PostgreSQL's autovacuum after a burst of inserts, held pages)
 * is done before the next measurement. `reached` is false when the bound came first.
 */
async function waitQuiet(maxS) {
  const t0 = Date.now();
  let busy = null;
  const quiet = () => busy !== null && busy < QUIET_BELOW_PCT;
  while (Date.now() - t0 < maxS * 1000 && !quiet()) {
    const m0 = machineCpu();
    await new Promise((r) => setTimeout(r, 1000));
    busy = machineWindow(m0, machineCpu()).busy_pct;
  }
  return { waited_s: Number(((Date.now() - t0) / 1000).toFixed(1)), busy_pct: busy, reached: quiet() };
}

/** The sum of a metric's samples in Prometheus text format; null when the metric is absent. */
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
 */
async function deleteBrokerNamespace(rabbitmqUrl, namespace) {
  const amqp = require('amqplib');
  const { brokerNames, DELIVERY_CHANNELS } = require('@relay/contracts');
  const n = brokerNames(namespace);
  const queues = new Set([n.activityQueue, n.deadActivityQueue, n.payloadQueue, ...DELIVERY_CHANNELS.flatMap((c) => [n.deliveryQueue(c), n.deadDeliveryQueue(c)])]);
  const exchanges = new Set([n.deliveriesExchange, n.activityExchange, n.deadLetterExchange, n.retryExchange]);
  const u = new URL(rabbitmqUrl);
  const auth = `Basic ${Buffer.from(`${decodeURIComponent(u.username || 'guest')}:${decodeURIComponent(u.password || 'guest')}`).toString('base64')}`;
  const mgmt = process.env.RABBITMQ_MANAGEMENT_URL || `http://${u.hostname}:15672`;
  for (const [kind, set] of [['queues', queues], ['exchanges', exchanges]]) {
    const list = await fetch(`${mgmt}/api/${kind}?columns=name`, { headers: { authorization: auth } }).then((r) => (r.ok ? r.json() : []), () => []);
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

module.exports = { deleteBrokerNamespace, envNumber, infraPid, infraPids, freePort, startProcess, runToCompletion, waitFor, waitReady, stopProcess, load, loadTracked, procSample, sampleOf, machineCpu, machineWindow, metricValue, percentile, waitQuiet };

