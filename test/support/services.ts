import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../bench/free-port';
import { eventually } from './infra';

const ROOT = path.resolve(__dirname, '../..');

export type ServiceName =
  | 'ingest-gateway'
  | 'management-api'
  | 'webhook-deliverer'
  | 'chat-deliverer'
  | 'outputs-deliverer'
  | 'activity-writer';

/**
 * The deliverers are one program, services/deliverer, run once per channel (docs/architecture.md
 * "Deliverers"): a deployment's name picks its DELIVERY_CHANNEL, as compose and Kubernetes do.
 */
const PROGRAMS: Partial<Record<ServiceName, { program: string; env: Record<string, string> }>> = {
  'webhook-deliverer': { program: 'deliverer', env: { DELIVERY_CHANNEL: 'webhook' } },
  'chat-deliverer': { program: 'deliverer', env: { DELIVERY_CHANNEL: 'chat' } },
  'outputs-deliverer': { program: 'deliverer', env: { DELIVERY_CHANNEL: 'outputs' } },
};

export interface RunningService {
  name: ServiceName;
  process: ChildProcess;
  pid: number;
  /** the port serving its HTTP API or health routes */
  port: number;
  url: string;
  /** where /healthz, /readyz and /metrics are: HEALTH_PORT (for the gateway and the API, not their PORT) */
  healthUrl: string;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A port for a service about to start: one implementation with the benches (bench/free-port.js says why it is reserved). */
export { freePort };

/**
 * Starts a built service (`services/<name>/dist/main.js`, or the deliverer program on the name's channel) as its own process with only the
 * environment given, and waits until its /readyz answers 200 — i.e. every dependency
 * completed a handshake. `npm test` builds before running the e2e tier.
 *
 * With `log`, the service writes its output to that file and is detached from this process: it
 * outlives the test file that started it (the shared stack of a Jest worker, test/e2e/shared-stack.ts).
 *
 * `{PORT}` in a value of `env` is the port the service is given: a management API's
 * DASHBOARD_URL names its own address (`http://127.0.0.1:{PORT}/`).
 */
export async function startService(
  name: ServiceName,
  env: Record<string, string>,
  opts: { log?: string } = {},
): Promise<RunningService> {
  // two test processes can still pick the same free port at the same moment: the loser retries with new ones
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServiceOnce(name, env, opts.log);
    } catch (err) {
      if (attempt >= 3 || !/EADDRINUSE/.test((err as Error).message)) throw err;
    }
  }
}

async function startServiceOnce(
  name: ServiceName,
  env: Record<string, string>,
  log: string | undefined,
): Promise<RunningService> {
  const port = await freePort();
  // the gateway and the API serve HTTP on PORT and health and metrics on HEALTH_PORT; the others only the latter
  const twoPorts = name === 'ingest-gateway' || name === 'management-api';
  const healthPort = twoPorts ? await freePort() : port;
  const ports: Record<string, string> = twoPorts
    ? { PORT: String(port), HEALTH_PORT: String(healthPort) }
    : { HEALTH_PORT: String(port) };
  const program = PROGRAMS[name];
  const logFd = log === undefined ? undefined : openSync(log, 'a');
  const child = spawn(process.execPath, [path.join(ROOT, 'services', program?.program ?? name, 'dist', 'main.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: '3000',
      HOST: '127.0.0.1',
      ...program?.env,
      ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replaceAll('{PORT}', String(port))])),
      ...ports,
    },
    stdio: logFd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', logFd, logFd],
    detached: logFd !== undefined,
  });
  let out = '';
  if (logFd === undefined) {
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  } else {
    closeSync(logFd);
    child.unref();
  }
  const output = (): string => (log === undefined ? out : readFileSync(log, 'utf8'));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const healthUrl = `http://127.0.0.1:${healthPort}`;
  const svc: RunningService = {
    name,
    process: child,
    pid: child.pid!,
    port,
    url,
    healthUrl,
    output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
  try {
    const state = await eventually(
      async () => {
        // a service that exited will never be ready: stop waiting at once
        if (child.exitCode !== null) return 'exited';
        const res = await fetch(`${healthUrl}/readyz`).catch(() => null);
        return res?.status === 200 ? 'ready' : null;
      },
      30000,
      `${name} to be ready`,
    );
    if (state === 'exited') throw new Error(`${name} exited with ${child.exitCode} before it was ready`);
  } catch (err) {
    await svc.stop('SIGKILL');
    throw new Error(`${(err as Error).message}\n--- ${name} output ---\n${output()}`);
  }
  return svc;
}

/** Runs the management API's bootstrap command and returns what it printed. */
export async function bootstrapAccount(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ account_id: string; api_key: string; endpoint_id?: string; ingest_url?: string }> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'services', 'management-api', 'dist', 'bootstrap.js'), ...args],
    {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`bootstrap failed (${code}): ${err}`);
  return JSON.parse(out.trim()) as { account_id: string; api_key: string };
}
