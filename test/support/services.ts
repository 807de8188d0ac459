import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { eventually } from './infra';

const ROOT = path.resolve(__dirname, '../..');

export type ServiceName = 'ingest-gateway' | 'management-api' | 'webhook-deliverer' | 'chat-deliverer' | 'activity-writer';

export interface RunningService {
  name: ServiceName;
  process: ChildProcess;
  /** the port serving its HTTP API or health routes */
  port: number;
  url: string;
  /** where /healthz, /readyz and /metrics are: HEALTH_PORT (for the gateway and the API, not their PORT) */
  healthUrl: string;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts a built service (`services/<name>/dist/main.js`) as its own process with only the
 * environment given, and waits until its /readyz answers 200 — i.e. every dependency
 * completed a handshake. `npm test` builds before running the e2e tier.
 */
export async function startService(name: ServiceName, env: Record<string, string>): Promise<RunningService> {
  const port = await freePort();
  // the gateway and the API serve HTTP on PORT and health and metrics on HEALTH_PORT; the others only the latter
  const twoPorts = name === 'ingest-gateway' || name === 'management-api';
  const healthPort = twoPorts ? await freePort() : port;
  const ports: Record<string, string> = twoPorts ? { PORT: String(port), HEALTH_PORT: String(healthPort) } : { HEALTH_PORT: String(port) };
  const child = spawn(process.execPath, [path.join(ROOT, 'services', name, 'dist', 'main.js')], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '3000', HOST: '127.0.0.1', ...env, ...ports },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const healthUrl = `http://127.0.0.1:${healthPort}`;
  const svc: RunningService = {
    name,
    process: child,
    port,
    url,
    healthUrl,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${out}`);
        const res = await fetch(`${healthUrl}/readyz`).catch(() => null);
        return res?.status === 200;
      },
      30000,
      `${name} to be ready`,
    );
  } catch (err) {
    await svc.stop('SIGKILL');
    throw new Error(`${(err as Error).message}\n--- ${name} output ---\n${out}`);
  }
  return svc;
}

/** Runs the management API's bootstrap command and returns what it printed. */
export async function bootstrapAccount(env: Record<string, string>, args: string[] = []): Promise<{ account_id: string; api_key: string; endpoint_id?: string; ingest_url?: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'services', 'management-api', 'dist', 'bootstrap.js'), ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`bootstrap failed (${code}): ${err}`);
  return JSON.parse(out.trim()) as { account_id: string; api_key: string };
}
