// The architecture's floor on this machine: what an ingest-and-relay pipeline built from the
// libraries the architecture fixes reaches when it does nothing else — express answering 202 once
// a quorum queue confirmed the body, a consumer POSTing it with got to a local receiver
// (bench/floor-services.js) — under bench/system.js's load and beside the same bare express
// baseline, measured before and after. Relay does strictly more per event (endpoint lookup,
// authentication, the Redis rate limit and quota, activity rows and the stored payload), so its
// ratio cannot exceed this one on the same machine: it tells how much of the whole-system
// target the fixed parts leave to Relay's own work.
//
//   node bench/floor.js          (BENCH_DURATION_S, BENCH_WARMUP_S, BENCH_CONNECTIONS as system.js)
'use strict';
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const amqp = require('amqplib');
const { makeBody, requestId, startReceiver, waitDelivered } = require('./receiver');
const { envNumber: num, infraPid, freePort, startProcess, stopProcess, waitFor, loadTracked, procSample, machineCpu, machineWindow, waitQuiet } = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const DURATION_S = num(process.env.BENCH_DURATION_S, 20);
const WARMUP_S = num(process.env.BENCH_WARMUP_S, DURATION_S <= 5 ? 1 : 3);
const CONNECTIONS = num(process.env.BENCH_CONNECTIONS, 64);
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR || path.join(ROOT, 'bench-results');
const RABBITMQ_URL = process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672';
const DELIVERY_TIMEOUT_MS = 60000;

const progress = (msg) => process.stderr.write(`floor bench: ${msg}\n`);

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

function cpuOf(pids) {
  const t0 = Date.now();
  const before = Object.fromEntries(Object.entries(pids).map(([n, pid]) => [n, procSample(pid)?.cpu_s ?? 0]));
  return () => Object.fromEntries(Object.entries(pids).map(([n, pid]) => [n, Math.round((((procSample(pid)?.cpu_s ?? 0) - before[n]) / ((Date.now() - t0) / 1000)) * 100)]));
}

async function main() {
  const queue = `bench_floor_${randomBytes(4).toString('hex')}`;
  const procs = [];
  let receiver = null;
  try {
    receiver = await startReceiver();
    const bare = startProcess(path.join(__dirname, 'bare-express.js'), { PORT: String(await freePort()) });
    procs.push(bare);
    const env = { RABBITMQ_URL, FLOOR_QUEUE: queue };
    const gateway = startProcess(path.join(__dirname, 'floor-services.js'), { ...env, FLOOR_ROLE: 'gateway', PORT: String(await freePort()) });
    procs.push(gateway);
    const gatewayPort = await listening(gateway);
    const deliverer = startProcess(path.join(__dirname, 'floor-services.js'), { ...env, FLOOR_ROLE: 'deliverer', PORT: String(await freePort()), FLOOR_TARGET_URL: `http://127.0.0.1:${receiver.port}/hook` });
    procs.push(deliverer);
    await listening(deliverer);
    const barePort = await listening(bare);
    await waitFor(`http://127.0.0.1:${barePort}/nothing`);

    const headers = { 'content-type': 'application/json' };
    const accepted = new Set();
    const loadPhase = (url, phase, durationS, track) =>
      loadTracked(url, { connections: CONNECTIONS, durationS, headers, makeBody: (seq) => makeBody(requestId(phase, seq)), onAccepted: track ? (seq) => accepted.add(requestId(phase, seq)) : undefined });
    const measureBare = async (when) => {
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
    progress(`floor ${DURATION_S} s measured load`);
    const pids = { gateway: gateway.pid, deliverer: deliverer.pid, receiver: receiver.child.pid, 'load generator': process.pid };
    const rabbit = infraPid('rabbitmq/rabbitmq.pid');
    if (rabbit) pids.rabbitmq = rabbit;
    const cpu = cpuOf(pids);
    const m0 = machineCpu();
    const run = await loadPhase(url, 'm', DURATION_S, true);
    const during = { processes: cpu(), ...machineWindow(m0, machineCpu()) };
    const lost = await waitDelivered(receiver, accepted, run.ended_at + DELIVERY_TIMEOUT_MS);
    const measured = receiver.order.filter((a) => a.id.startsWith('m'));
    const lastAt = measured.length ? measured[measured.length - 1].at : null;
    const deliveredPerS = lastAt ? Math.round(measured.length / ((lastAt - run.started_at) / 1000)) : 0;
    await waitQuiet(20);
    const bareAfter = await measureBare('after');
    const bareMean = Math.round((bareBefore.req_per_s + bareAfter.req_per_s) / 2);
    const report = {
      bench: 'floor',
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
      load: { connections: CONNECTIONS, duration_s: DURATION_S, warmup_s: WARMUP_S, body_bytes: Buffer.byteLength(makeBody(requestId('m', 0))) },
    };
    const line = (k, v) => process.stdout.write(`${k.padEnd(30)} ${v}\n`);
    process.stdout.write('\nfloor: express → quorum queue (confirmed) → got → receiver; nothing else\n');
    line('bare express before / after', `${bareBefore.req_per_s}/s (steal ${bareBefore.steal_pct}%) / ${bareAfter.req_per_s}/s (steal ${bareAfter.steal_pct}%)`);
    line('floor accepted (202)', `${run.accepted_per_s}/s, p50 ${run.p50_ms} ms, p99 ${run.p99_ms} ms, non-2xx ${run.non_2xx}`);
    line('floor delivered', `${deliveredPerS}/s, lost ${lost}, duplicates ${receiver.duplicates}`);
    line('ratio delivered ÷ bare express', String(report.ratio));
    line('CPU % during load', `${Object.entries(during.processes).map(([n, v]) => `${n} ${v}%`).join(', ')}; machine ${during.busy_pct}% busy, steal ${during.steal_pct}%`);
    process.stdout.write(`${JSON.stringify(report)}\n`);
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    fs.writeFileSync(path.join(RESULTS_DIR, 'floor.json'), `${JSON.stringify(report, null, 2)}\n`);
    return lost > 0 ? 1 : 0;
  } finally {
    await Promise.all(procs.map((p) => stopProcess(p)));
    if (receiver?.child.connected) receiver.child.disconnect();
    await deleteQueue(queue);
  }
}

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

main().then((code) => process.exit(code), (err) => {
  process.stderr.write(`bench/floor failed: ${err.stack || err}\n`);
  process.exit(1);
});
