import { parentPort, workerData } from 'node:worker_threads';
import { Sandbox } from './sandbox';
import type { SandboxLimits } from './limits';
import type { RunRequest, RunResponse } from './runner';

const WARM_UP = [
  '(r, c) => ({ ...r, headers: { x: c.id }, body: { n: r.body.a.map((x) => x * 2).join(","), s: r.body.s.toUpperCase() } })',
  'async (r) => { console.log("log", r); return JSON.parse(JSON.stringify(r)) }',
  '(r) => { throw new Error("warm") }',
  '(r) => { const o = {}; for (let i = 0; i < 200; i++) o["k" + i] = [i, String(i)]; return Object.keys(o).length }',
];

/* The sandbox's thread: runs the transformations the runner (runner.ts) sends, in order, and answers each. */
void (async () => {
  const sandbox = await Sandbox.load(workerData as SandboxLimits);
  // calls before the first real one: V8 compiles WebAssembly functions when first called, which
  // on a busy machine took longer than a whole budget; these reach the engine's common paths
  for (const code of WARM_UP) sandbox.run('warm-up', code, [{ body: { a: [1, 2], s: 'text' } }, { id: 'x' }]);
  sandbox.close();
  // calls come in batches; each is answered as soon as it ran, so the runner's watchdog sees
  // the one running
  parentPort!.on('message', (batch: RunRequest[]) => {
    for (const job of batch) {
      const response: RunResponse = { id: job.id, result: sandbox.runJson(job.tenant, job.code, job.argsJson) };
      parentPort!.postMessage(response);
      // the runner starts a new thread for the next call, and sends again the calls not answered
      if (sandbox.broken) process.exit(1);
    }
  });
  parentPort!.postMessage('ready');
})();
