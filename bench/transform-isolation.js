// One account's endless-loop transformation beside another account's traffic: the services as
// scripts/start.sh starts them (fresh namespace and database), account B with a typical
// transformation (a few renames) sending at a steady rate to a local receiver, first alone, then
// while account A sends to an endpoint whose transformation never ends (each call stopped at its
// budget). Per phase: B's 202 latency and delivery latency (202 sent → receiver), p50 and p99.
//
//   npx tsc -b && node bench/transform-isolation.js   (BENCH_ISOLATION_RATE 40/s, BENCH_ISOLATION_S 15, A at 10/s)
//   MONGODB_URL, REDIS_URL, RABBITMQ_URL, BENCH_RESULTS_DIR as the other benches
'use strict';
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { envNumber, percentile, runToCompletion, stopProcess, writeResults } = require('./lib');
const { MongoClient } = require('mongodb');
const { cleanup, newRun, serviceEnv, startSystem } = require('./system');

const ROOT = path.resolve(__dirname, '..');
const RATE = envNumber(process.env.BENCH_ISOLATION_RATE, 40);
const SECONDS = envNumber(process.env.BENCH_ISOLATION_S, 15);
const LOOP_RATE = 10;
const TYPICAL = `(request, context) => ({
  ...request,
  headers: { ...request.headers, 'x-event': context.event_id },
  body: { id: request.body.id, kind: request.body.type, amount: request.body.data.amount },
})`;

/** @param {number[]} list */
const summary = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  const r = (/** @type {number | null} */ v) => (v === null ? null : Number(v.toFixed(1)));
  return { count: list.length, p50_ms: r(percentile(sorted, 50)), p99_ms: r(percentile(sorted, 99)) };
};

async function main() {
  const ns = await newRun('bench_tiso');
  const env = serviceEnv(ns);
  const ports = ns.ports;
  /** @type {Map<string, number>} event id → when its delivery arrived */
  const arrived = new Map();
  const receiver = http.createServer((req, res) =>
    req.resume().on('end', () => {
      arrived.set(String(req.headers['x-relay-event-id']), performance.now());
      res.end('ok');
    }),
  );
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', () => resolve(undefined)));
  const receiverUrl = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (receiver.address()).port}/`;
  /** @type {Record<string, import('./lib').BenchProcess>} */
  const procs = {};
  try {
    await startSystem(ns, env, procs);
    const bootstrap = async (/** @type {string} */ name) =>
      JSON.parse(
        (
          await runToCompletion(path.join(ROOT, 'services/management-api/dist/bootstrap.js'), ['--account', name], env)
        ).trim(),
      );
    /** endpoint with one webhook target to the receiver and the transformation `code` */
    const endpointOf = async (/** @type {string} */ key, /** @type {string} */ code) => {
      /** @type {(p: string, method: string, body: unknown) => Promise<any>} */
      const api = async (p, method, body) =>
        (
          await fetch(`http://127.0.0.1:${ports['management-api']}${p}`, {
            method,
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).json();
      // above the default 600/min, which B's 40/s would pass within a phase
      const endpoint = await api('/v1/endpoints', 'POST', { name: 'bench', rate_limit_per_minute: 100_000 });
      await api(`/v1/endpoints/${endpoint.id}/targets`, 'POST', {
        kind: 'webhook',
        name: 'r',
        config: { url: receiverUrl, enforce_https: false },
      });
      await api(`/v1/endpoints/${endpoint.id}/transformation`, 'PUT', { code });
      return endpoint.id;
    };
    const a = await endpointOf((await bootstrap('a')).api_key, '(r) => { for (;;) {} }');
    const b = await endpointOf((await bootstrap('b')).api_key, TYPICAL);
    const send = async (/** @type {string} */ endpointId, /** @type {number} */ i) => {
      const t = performance.now();
      const res = await fetch(`http://127.0.0.1:${ports['ingest-gateway']}/relay/${endpointId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: `e${i}`, type: 'charge', data: { amount: i, note: 'x'.repeat(800) } }),
      });
      await res.text();
      return {
        at: t,
        ackMs: performance.now() - t,
        status: res.status,
        eventId: res.headers.get('x-relay-event-id') ?? '',
      };
    };
    /** B at RATE/s for SECONDS (A at LOOP_RATE/s beside it when `withLoop`); B's latencies */
    const phase = async (/** @type {boolean} */ withLoop) => {
      /** @type {Promise<{ at: number; ackMs: number; status: number; eventId: string }>[]} */
      const sentB = [];
      const sentA = [];
      const started = performance.now();
      for (let i = 0; performance.now() - started < SECONDS * 1000; i++) {
        sentB.push(send(b, i));
        if (withLoop && i % Math.max(1, Math.round(RATE / LOOP_RATE)) === 0) sentA.push(send(a, i));
        const next = started + ((i + 1) * 1000) / RATE;
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      }
      const answered = await Promise.all(sentB);
      // only accepted events are waited for; any other answer is reported, not timed
      const bs = answered.filter((s) => s.status === 202);
      await Promise.all(sentA);
      const deadline = Date.now() + 60_000;
      while (bs.some((s) => !arrived.has(s.eventId)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      return {
        b_202: summary(bs.map((s) => s.ackMs)),
        b_delivery: summary(
          bs.flatMap((s) => {
            const at = arrived.get(s.eventId);
            return at === undefined ? [] : [at - s.at];
          }),
        ),
        b_not_accepted: answered.length - bs.length,
        b_not_delivered: bs.filter((s) => !arrived.has(s.eventId)).length,
        a_sent: sentA.length,
      };
    };
    await phase(false); // warm-up: the sandbox thread started, caches filled
    const alone = await phase(false);
    const besideLoop = await phase(true);
    const result = {
      at: new Date().toISOString(),
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? '', node: process.version },
      rate_per_s: RATE,
      seconds: SECONDS,
      loop_rate_per_s: LOOP_RATE,
      b_alone: alone,
      b_beside_a_loop: besideLoop,
    };
    console.log(JSON.stringify(result, null, 2));
    writeResults('transform-isolation', result);
    // an accepted event never delivered is a loss, whatever the timings
    if (alone.b_not_delivered + besideLoop.b_not_delivered > 0) process.exitCode = 1;
  } finally {
    for (const p of Object.values(procs)) await stopProcess(p);
    receiver.close();
    // the run's queues, keys and database go with it: a broker left holding every run's quorum
    // queues spends a share of the machine on them
    const mongoClient = new MongoClient(ns.mongodbUrl);
    await cleanup(ns, mongoClient);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
