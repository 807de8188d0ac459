// What a transformation costs (docs/transformations.md, docs/benchmarks.md "Transformations"), in
// process, no servers: loading the QuickJS WebAssembly module; a tenant's first call (its runtime
// and frozen context made); one call with a runtime made and disposed per call; one call on the
// tenant's reused runtime and context (the design the deliverer uses); calls through
// TransformRunner (the same, on the sandbox's thread), one at a time (the message hop's latency)
// and 64 at a time (what a busy deliverer sees). The transformation renames a few fields of a
// 1 KB JSON body, as a typical one does.
//
//   npx tsc -b libs/transform && node bench/transform.js      (BENCH_TRANSFORM_CALLS: 2000)
//   BENCH_RESULTS_DIR as the other benches
'use strict';
const os = require('node:os');
const { envNumber, percentile, writeResults } = require('./lib');
const { Sandbox, TransformRunner } = require('../libs/transform/dist');

const CALLS = envNumber(process.env.BENCH_TRANSFORM_CALLS, 2000);
const CODE = `(request, context) => ({
  ...request,
  headers: { ...request.headers, 'x-event': context.event_id },
  body: { id: request.body.id, kind: request.body.type, amount: request.body.data.amount, note: request.body.data.note },
})`;
const REQUEST = {
  method: 'POST',
  path: '/relay/ep_bench',
  query: {},
  headers: { 'content-type': 'application/json', 'user-agent': 'bench' },
  body: { id: 'evt_1', type: 'charge.succeeded', data: { amount: 1200, note: 'x'.repeat(900) } },
};
const CONTEXT = {
  event_id: 'evt_1',
  received_at: new Date().toISOString(),
  endpoint: { id: 'ep_bench', name: 'bench' },
};

/** @param {number[]} ms */
const summary = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return {
    per_call_ms_p50: round(percentile(sorted, 50)),
    per_call_ms_p99: round(percentile(sorted, 99)),
    calls_per_s: Math.round(1000 / (ms.reduce((a, b) => a + b, 0) / ms.length)),
  };
};
/** @param {number | null} x */
const round = (x) => (x === null ? null : Math.round(x * 1000) / 1000);

/** @param {() => unknown} fn */
function timed(fn) {
  const ms = [];
  for (let i = 0; i < CALLS / 10; i++) fn(); // warm-up
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return ms;
}

async function main() {
  let t = performance.now();
  const sandbox = await Sandbox.load();
  const moduleLoadMs = performance.now() - t;

  // a tenant seen for the first time: the runtime is created, then the call
  const firstCall = [];
  for (let i = 0; i < 50; i++) {
    t = performance.now();
    sandbox.run(`acc_new_${i}`, CODE, [REQUEST, CONTEXT]);
    firstCall.push(performance.now() - t);
  }
  sandbox.close();

  // a runtime per call: what "a sandbox per call" would cost
  const perCall = timed(() => {
    const one = sandbox.run(`acc_${Math.random()}`, CODE, [REQUEST, CONTEXT]);
    sandbox.close();
    return one;
  });
  // the tenant's runtime and context reused
  const reused = timed(() => sandbox.run('acc_bench', CODE, [REQUEST, CONTEXT]));
  sandbox.close();

  const runner = new TransformRunner();
  t = performance.now();
  await runner.run('acc_bench', CODE, [REQUEST, CONTEXT]);
  const threadStartMs = performance.now() - t;
  const viaRunner = [];
  for (let i = 0; i < CALLS; i++) {
    t = performance.now();
    await runner.run('acc_bench', CODE, [REQUEST, CONTEXT]);
    viaRunner.push(performance.now() - t);
  }
  const concurrent = 64;
  t = performance.now();
  for (let sent = 0; sent < CALLS; sent += concurrent)
    await Promise.all(Array.from({ length: concurrent }, () => runner.run('acc_bench', CODE, [REQUEST, CONTEXT])));
  const concurrentCallsPerS = Math.round((Math.ceil(CALLS / concurrent) * concurrent * 1000) / (performance.now() - t));
  await runner.close();

  const result = {
    at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? '', node: process.version },
    calls: CALLS,
    module_load_ms: round(moduleLoadMs),
    runner_thread_start_ms: round(threadStartMs),
    first_call_of_a_tenant_ms_p50: round(
      percentile(
        [...firstCall].sort((a, b) => a - b),
        50,
      ),
    ),
    runtime_per_call: summary(perCall),
    reused_runtime_and_context: summary(reused),
    through_runner_thread: summary(viaRunner),
    through_runner_thread_64_at_a_time: { calls_per_s: concurrentCallsPerS },
  };
  console.log(JSON.stringify(result, null, 2));
  writeResults('transform', result);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
