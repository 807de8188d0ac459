import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { connectStore } from '@relay/store';
import { deleteBrokerNamespace, eventually, infra, testNamespace } from '../support/infra';
import { startService } from '../support/services';
import type { RunningService, ServiceName } from '../support/services';

/**
 * What one Jest worker shares between its end-to-end files: a whole stack (every service a
 * process, detached from the worker so that it outlives the file that started it) and a
 * Chromium behind playwright's browser server. The first file of a worker that asks starts
 * them and writes where they are under the run's directory (RELAY_E2E_RUN_DIR, made by
 * worker-setup.ts); the files after it read that record. A worker runs one file at a time, so a
 * shared stack never serves two files at once; files isolate themselves by account.
 * worker-teardown.ts stops them all and removes their namespaces when the run ends.
 */

const ROOT = path.resolve(__dirname, '../..');

/** the environment of every stack the tests start, shared or private (the shared one runs the defaults beyond it, but for SHARED_WRITER) */
export function stackEnv(namespace: string, mongodbUrl: string): Record<string, string> {
  return {
    RABBITMQ_URL: infra.rabbitmqUrl,
    REDIS_URL: infra.redisUrl,
    MONGODB_URL: mongodbUrl,
    RELAY_NAMESPACE: namespace,
    SSRF_ALLOW_CIDRS: '127.0.0.0/8',
    SECRETS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  };
}

interface ServiceRecord {
  pid: number;
  port: number;
  url: string;
  healthUrl: string;
  log: string;
}

export interface SharedStackRecord {
  namespace: string;
  mongodbUrl: string;
  /** the environment every service got (the management API the gateway's addresses too): extra processes a test starts on this stack use it */
  env: Record<string, string>;
  services: Partial<Record<ServiceName, ServiceRecord>>;
  /** set once every service answered /readyz; a record without it is a start that failed (the next file starts again) */
  ready: boolean;
}

interface BrowserRecord {
  pid: number;
  wsEndpoint: string;
}

function runDir(): string {
  const dir = process.env.RELAY_E2E_RUN_DIR;
  if (!dir || !existsSync(dir))
    throw new Error(
      'RELAY_E2E_RUN_DIR is not set: end-to-end files run in the e2e project of jest.config.js, whose globalSetup makes it',
    );
  return dir;
}

const worker = (): string => process.env.JEST_WORKER_ID ?? '1';
const recordFile = (kind: 'stack' | 'browser'): string => path.join(runDir(), `${kind}-${worker()}.json`);

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Signals a process started detached: the leader of a process group of its own (the browser's children too). */
function signalGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    if (alive(pid)) process.kill(-pid, sig);
  } catch {
    // gone between the check and the signal
  }
}

/**
 * The shared activity writer writes a row within a tenth of a second of its last record (the
 * defaults wait up to a second, and 3 s for a request's first attempts): the files on it wait
 * for rows all the time. The defaults' batching has tests of its own (the activity-writer and
 * pipeline tests, and private stacks here).
 */
const SHARED_WRITER = { BATCH_MAX_WAIT_MS: '100', ACTIVITY_HOLD_MS: '500' };

/**
 * The shared management API looks for bulk retries every 200 ms and runs them at up to 1,000
 * deliveries a second (the defaults: 2 s and 100), and sets no resend rate per account: the
 * files on it retry and resend hundreds of deliveries. The defaults are the integration tier's
 * (test/integration/management) and the private stacks'.
 */
const SHARED_API = { BULK_RETRY_POLL_MS: '200', BULK_RETRY_MAX_RATE: '1000', RESENDS_PER_MINUTE: '100000' };

/** This worker's shared stack: started by the first file that asks, found by the ones after it. */
export async function sharedStack(): Promise<SharedStackRecord> {
  const file = recordFile('stack');
  if (existsSync(file)) {
    const earlier = JSON.parse(readFileSync(file, 'utf8')) as SharedStackRecord;
    if (earlier.ready) return attach(earlier);
    // an earlier file's start failed (its error was that file's): stop what it started and start
    // again, its record kept aside for the teardown to remove its namespace
    for (const svc of Object.values(earlier.services)) signalGroup(svc.pid, 'SIGKILL');
    renameSync(file, path.join(runDir(), `stack-${worker()}-failed-${Date.now()}.json`));
  }
  const ns = testNamespace(`shared-w${worker()}`);
  const record: SharedStackRecord = {
    namespace: ns.namespace,
    mongodbUrl: ns.mongodbUrl,
    env: stackEnv(ns.namespace, ns.mongodbUrl),
    services: {},
    ready: false,
  };
  const save = (): void => writeFileSync(file, JSON.stringify(record, null, 2));
  const start = async (name: ServiceName, extra: Record<string, string> = {}): Promise<RunningService> => {
    const log = path.join(runDir(), `${name}-${worker()}.log`);
    const svc = await startService(name, { ...record.env, ...extra }, { log });
    record.services[name] = { pid: svc.pid, port: svc.port, url: svc.url, healthUrl: svc.healthUrl, log };
    save();
    return svc;
  };
  save();
  try {
    // the API's ingest URLs are the gateway's real address; it runs test requests through the
    // gateway's pipeline on its health port
    const gateway = await start('ingest-gateway');
    const api = { ...SHARED_API, PUBLIC_BASE_URL: gateway.url, GATEWAY_INTERNAL_URL: gateway.healthUrl };
    // all settled before the record is final: a start still running would write it later
    const started = await Promise.allSettled([
      start('management-api', api),
      start('webhook-deliverer'),
      start('activity-writer', SHARED_WRITER),
    ]);
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    record.ready = true;
  } finally {
    save();
  }
  return record;
}

/** The record of an earlier file's start: every service must still run and be ready (within the bound a start has), or this file fails with its log. */
async function attach(record: SharedStackRecord): Promise<SharedStackRecord> {
  for (const [name, svc] of Object.entries(record.services)) {
    await eventually(
      async () => {
        if (!alive(svc.pid)) throw new Error(`pid ${svc.pid} has exited`);
        return (await fetch(`${svc.healthUrl}/readyz`)).status === 200;
      },
      30000,
      `the shared ${name} to be ready`,
    ).catch((err: Error) => {
      const tail = readFileSync(svc.log, 'utf8').split('\n').slice(-40).join('\n');
      throw new Error(`${err.message}\n--- its last output ---\n${tail}`);
    });
  }
  return record;
}

/**
 * Debian's Chromium as every browser test launched it before (dashboard/browser.ts) but behind
 * playwright's browser server, in a process of its own that outlives the file, so that a worker
 * starts one browser; files connect to it and get fresh contexts.
 */
export async function sharedBrowser(launch: { executablePath: string; args: string[] }): Promise<string> {
  const file = recordFile('browser');
  if (existsSync(file)) {
    const record = JSON.parse(readFileSync(file, 'utf8')) as BrowserRecord;
    if (!alive(record.pid)) throw new Error(`the worker's browser server (pid ${record.pid}) has exited`);
    return record.wsEndpoint;
  }
  const log = path.join(runDir(), `browser-${worker()}.log`);
  writeFileSync(log, '');
  // the server prints its address once listening; playwright closes the browser on SIGTERM
  const script =
    "require('playwright-core').chromium.launchServer(JSON.parse(process.env.RELAY_BROWSER_LAUNCH))" +
    '.then((s) => console.log(s.wsEndpoint()), (e) => { console.error(e); process.exit(1); })';
  const fd = openSync(log, 'a');
  const child = spawn(process.execPath, ['-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', RELAY_BROWSER_LAUNCH: JSON.stringify({ ...launch, headless: true }) },
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  closeSync(fd);
  child.unref();
  const record: BrowserRecord = { pid: child.pid!, wsEndpoint: '' };
  writeFileSync(file, JSON.stringify(record));
  record.wsEndpoint = await eventually(
    async () => {
      const out = readFileSync(log, 'utf8');
      if (child.exitCode !== null) throw new Error(`the browser server exited with ${child.exitCode}: ${out}`);
      return /^(ws:\/\/\S+)$/m.exec(out)?.[1];
    },
    60000,
    'the browser server to listen',
  );
  writeFileSync(file, JSON.stringify(record));
  return record.wsEndpoint;
}

/** Stops every worker's shared stack and browser of this run and removes the stacks' namespaces. */
export async function stopWorkerStacks(dir: string): Promise<void> {
  const files = readdirSync(dir).filter((f) => /^(stack|browser)-[\w-]+\.json$/.test(f));
  const records = files.map(
    (f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as SharedStackRecord | BrowserRecord,
  );
  const pids = records.flatMap((r) => ('services' in r ? Object.values(r.services).map((s) => s.pid) : [r.pid]));
  const signal = (sig: NodeJS.Signals): void => pids.forEach((pid) => signalGroup(pid, sig));
  signal('SIGTERM');
  await eventually(async () => !pids.some(alive), 15000, 'the shared services to exit').catch(() => signal('SIGKILL'));
  for (const r of records) {
    if (!('services' in r)) continue;
    const store = await connectStore(r.mongodbUrl);
    await store.connection.dropDatabase().catch(() => undefined);
    await store.close();
    const redis = new Redis(infra.redisUrl);
    const keys = await redis.keys(`${r.namespace}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await deleteBrokerNamespace(r.namespace);
  }
  rmSync(dir, { recursive: true, force: true });
}
