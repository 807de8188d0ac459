// CPU time a deliverer spends per transformed delivery (docs/benchmarks.md "Transformation CPU per
// delivery"), in process, no servers: the deliverer's path from a delivery message to the
// delivery it sends (applyTransformations through TransformRunner, as libs/transform/src/delivery.ts
// runs it), with the typical transformation of bench/system.js on bench/receiver.js's 1 KB body,
// BENCH_TRANSFORM_CONCURRENT deliveries in flight as on a busy deliverer. CPU time, not
// throughput: the process's (process.cpuUsage), its main thread's and the sandbox thread's
// (/proc/self/task/<tid>/schedstat), divided by the calls of the timed window. CPU time per call
// moves far less with other load on a shared machine than calls per second do.
//
//   npx tsc -b libs/transform && node bench/transform-call.js
//   BENCH_TRANSFORM_CALLS (5000), BENCH_TRANSFORM_CONCURRENT (64), BENCH_TRANSFORM_ROUNDS (3);
//   BENCH_TRANSFORM_LIBS: comma-separated built copies of libs/transform/dist to compare, each
//   run in every round, alternated (default: this tree's); BENCH_RESULTS_DIR as the other benches
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { envNumber, percentile, writeResults } = require('./lib');
const { makeBody, requestId } = require('./receiver');

const CALLS = envNumber(process.env.BENCH_TRANSFORM_CALLS, 5000);
const CONCURRENT = envNumber(process.env.BENCH_TRANSFORM_CONCURRENT, 64);
const ROUNDS = envNumber(process.env.BENCH_TRANSFORM_ROUNDS, 3);
const LIBS = (process.env.BENCH_TRANSFORM_LIBS || path.join(__dirname, '..', 'libs', 'transform', 'dist'))
  .split(',')
  .map((p) => path.resolve(p));
// bench/system.js's BENCH_TRANSFORM
const CODE =
  '(request) => ({ ...request, body: { id: request.body.id, type: request.body.event, note: request.body.data.note, source: "bench" } })';

/** @param {number} seq */
const delivery = (seq) => ({
  type: 'delivery.v1',
  event_id: `evt_${seq}`,
  delivery_id: `dlv_${seq}`,
  attempt: 1,
  account_id: 'acc_bench',
  endpoint_id: 'ep_bench',
  target_id: 'tg_bench',
  target_kind: 'webhook',
  received_at: new Date().toISOString(),
  request: {
    method: 'POST',
    source_ip: '127.0.0.1',
    headers: { 'user-agent': 'bench', 'x-request-id': `req_${seq}` },
    query: '',
  },
  payload: {
    content_type: 'application/json',
    body_base64: Buffer.from(makeBody(requestId('m', seq))).toString('base64'),
  },
});
const TARGET = { id: 'tg_bench', name: 'receiver', kind: 'webhook' };

/** CPU nanoseconds a thread of this process ran (schedstat's first field); 0 when it is gone. @param {string} tid */
const threadNs = (tid) => {
  try {
    return Number(fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
};
const tids = () => new Set(fs.readdirSync('/proc/self/task'));
const MAIN = String(process.pid);

/**
 * One lib's run: the runner started and warmed, then CALLS deliveries with CONCURRENT in flight.
 * @param {string} dist
 */
async function runOnce(dist) {
  /** @type {typeof import('../libs/transform/dist')} */
  const { TransformRunner, applyTransformations, DEFAULT_LIMITS } = require(dist);
  const before = tids();
  const runner = new TransformRunner();
  // as delivery.ts calls it; a build from before TransformRunner.call took the arguments (an array) in run
  /** @type {import('../libs/transform/dist').RunCode} */
  const run =
    typeof runner.call === 'function'
      ? (tenant, code, args) => runner.call(tenant, code, args)
      : (tenant, code, args) => runner.run(tenant, code, /** @type {any} */ (args));
  /** @type {import('../libs/transform/dist').Transformation[]} */
  const chain = [{ scope: 'endpoint', version: 1, code: CODE }];
  let seq = 0;
  const one = async () => {
    const d = delivery(seq++);
    const context = {
      event_id: d.event_id,
      received_at: d.received_at,
      endpoint: { id: d.endpoint_id, name: 'bench' },
      provider: null,
      target: TARGET,
    };
    const done = await applyTransformations(run, d.account_id, chain, d, context, DEFAULT_LIMITS.outputBytes);
    if (done.result !== 'pass') throw new Error(`transformation ${done.result}: ${JSON.stringify(done)}`);
    return { ...d, ...done.carried };
  };
  const drive = async (/** @type {number} */ n) => {
    let left = n;
    await Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        while (left-- > 0) await one();
      }),
    );
  };
  await drive(Math.max(500, CALLS / 5)); // the thread started, the engine's paths compiled
  const sandboxTids = [...tids()].filter((t) => !before.has(t) && t !== MAIN);
  const cpu0 = process.cpuUsage();
  const main0 = threadNs(MAIN);
  const sandbox0 = sandboxTids.map(threadNs);
  const t0 = performance.now();
  await drive(CALLS);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const mainNs = threadNs(MAIN) - main0;
  const sandboxNs = sandboxTids.map(threadNs).reduce((n, v, i) => n + v - (sandbox0[i] ?? 0), 0);
  await runner.close();
  const us = (/** @type {number} */ ns) => Math.round(ns / CALLS / 10) / 100;
  return {
    process_us_per_call: us((cpu.user + cpu.system) * 1000),
    main_thread_us_per_call: us(mainNs),
    sandbox_thread_us_per_call: us(sandboxNs),
    calls_per_s: Math.round((CALLS * 1000) / wallMs),
  };
}

/** @param {number[]} xs */
const median = (xs) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

async function main() {
  /** @type {Map<string, Awaited<ReturnType<typeof runOnce>>[]>} */
  const runs = new Map(LIBS.map((l) => [l, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const lib of round % 2 === 0 ? LIBS : [...LIBS].reverse()) runs.get(lib)?.push(await runOnce(lib));
  /** @param {Awaited<ReturnType<typeof runOnce>>[]} rs @param {keyof Awaited<ReturnType<typeof runOnce>>} k */
  const medianOf = (rs, k) => median(rs.map((r) => r[k]));
  const result = {
    at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? '', node: process.version },
    calls: CALLS,
    concurrent: CONCURRENT,
    rounds: ROUNDS,
    // in BENCH_TRANSFORM_LIBS order (this tree's alone by default); medians of the rounds
    builds: [...runs].map(([lib, rs]) => ({
      dist: path.relative(process.cwd(), lib) || lib,
      process_us_per_call: medianOf(rs, 'process_us_per_call'),
      main_thread_us_per_call: medianOf(rs, 'main_thread_us_per_call'),
      sandbox_thread_us_per_call: medianOf(rs, 'sandbox_thread_us_per_call'),
      calls_per_s: medianOf(rs, 'calls_per_s'),
      runs: rs,
    })),
  };
  console.log(JSON.stringify(result, null, 2));
  writeResults('transform-call', result);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
