import { parentPort, workerData } from 'node:worker_threads';
import { Sandbox } from './sandbox';
import { monotonicMs } from './runner';
import type { RunRequest, RunResponse, ThreadData } from './runner';

const WARM_UP = [
  '(r, c) => ({ ...r, headers: { x: c.id }, body: { n: r.body.a.map((x) => x * 2).join(","), s: r.body.s.toUpperCase() } })',
  'async (r) => { console.log("log", r); return JSON.parse(JSON.stringify(r)) }',
  '(r) => { throw new Error("warm") }',
  '(r) => { const o = {}; for (let i = 0; i < 200; i++) o["k" + i] = [i, String(i)]; return Object.keys(o).length }',
];

/*
 * The answers of a batch's calls go as one message when it ends (one message per call cost the
 * thread more than most calls did); before a call starts, those held longer than this are sent,
 * so a long call holds back only answers of the last moment.
 */
const HOLD_ANSWERS_MS = 1;

/* The sandbox's thread: runs the transformations the runner (runner.ts) sends, in order, and answers them. */
void (async () => {
  const { limits, longMs, running } = workerData as ThreadData;
  const sandbox = await Sandbox.load(limits);
  // calls before the first real one: V8 compiles WebAssembly functions when first called, which
  // on a busy machine took longer than a whole budget; these reach the engine's common paths
  for (const code of WARM_UP) sandbox.run('warm-up', code, [{ body: { a: [1, 2], s: 'text' } }, { id: 'x' }]);
  sandbox.close();
  parentPort!.on('message', (batch: RunRequest[]) => {
    let answers: RunResponse[] = [];
    let sentAt = performance.now();
    const send = (): void => {
      if (answers.length > 0) parentPort!.postMessage(answers);
      answers = [];
      sentAt = performance.now();
    };
    // tenants whose call in this batch ran long: the runner sent their calls together expecting
    // them short, so their later ones go back unrun and are sent again by their new cost; another
    // tenant's calls then wait for one long call of a tenant, not for every one it had in the batch
    const long = new Set<string>();
    for (const job of batch) {
      if (long.has(job.tenant)) {
        answers.push({ id: job.id, unrun: true });
        continue;
      }
      if (performance.now() - sentAt > HOLD_ANSWERS_MS) send();
      // the runner's watchdog reads which call runs and since when (the start first: it reads the id first)
      running.startedAt[0] = monotonicMs();
      Atomics.store(running.id, 0, job.id);
      const result = sandbox.call(job.tenant, job.code, job.args);
      answers.push({ id: job.id, result });
      Atomics.store(running.id, 0, 0);
      if (result.durationMs > longMs) long.add(job.tenant);
      if (sandbox.broken) {
        // the runner starts a new thread for the next call, and sends again the calls not answered
        send();
        process.exit(1);
      }
    }
    send();
  });
  parentPort!.postMessage('ready');
})();
