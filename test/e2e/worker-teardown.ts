import { stopWorkerStacks } from './worker-stacks';

/** The e2e project's globalTeardown: stops what the workers shared and removes its namespaces. */
export default async function teardown(): Promise<void> {
  const dir = process.env.RELAY_E2E_RUN_DIR;
  if (dir) await stopWorkerStacks(dir);
}
