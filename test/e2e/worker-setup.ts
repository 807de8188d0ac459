import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The e2e project's globalSetup: the run's directory, where each worker records its shared stack (worker-stacks.ts). */
export default function setup(): void {
  process.env.RELAY_E2E_RUN_DIR = mkdtempSync(path.join(tmpdir(), 'relay-e2e-'));
}
