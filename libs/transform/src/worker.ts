import { parentPort, workerData } from 'node:worker_threads';
import { Sandbox } from './sandbox';
import type { SandboxLimits } from './limits';
import type { RunRequest, RunResponse } from './runner';

/* The sandbox's thread: runs one transformation at a time for the runner (runner.ts) and answers. */
void (async () => {
  const sandbox = await Sandbox.load(workerData as SandboxLimits);
  parentPort!.on('message', (job: RunRequest) => {
    const response: RunResponse = { id: job.id, result: sandbox.run(job.tenant, job.code, job.args) };
    parentPort!.postMessage(response);
  });
  parentPort!.postMessage('ready');
})();
