import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { eventually } from './infra';

const ROOT = path.resolve(__dirname, '../..');

/** `npx relay …` (services/cli, built by `tsc -b`) as a process of its own. */
export interface RelayProcess {
  child: ChildProcess;
  /** with `merged`, stdout and stderr as one record, in the order the CLI wrote them */
  stdout(): string;
  /** with `merged`, empty */
  stderr(): string;
  /** signals the whole process group, so SIGKILL reaches the CLI under npx too */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface RelayProcessOptions {
  /**
   * The CLI's stderr joined to its stdout (`2>&1`): one pipe, so what it says (stderr) and what it
   * delivered (stdout) can be told apart in order; two pipes are read in no order between them.
   */
  merged?: boolean;
}

/** Starts `npx relay <args>` from the repository, with only PATH, HOME and `env` in its environment. */
export function npxRelay(args: string[], env: Record<string, string>, opts: RelayProcessOptions = {}): RelayProcess {
  const [command, commandArgs]: [string, string[]] = opts.merged
    ? ['sh', ['-c', 'exec npx relay "$@" 2>&1', 'relay', ...args]]
    : ['npx', ['relay', ...args]];
  const child = spawn(command, commandArgs, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
      await exited;
    },
  };
}

/** Runs `npx relay …` to its end. */
export async function runRelay(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = npxRelay(args, env);
  const code = await new Promise<number | null>((resolve) => p.child.once('exit', resolve));
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

/** `npx relay listen …`, resolved once its session is open (the CLI says "Listening on"). */
export async function relayListen(
  args: string[],
  env: Record<string, string>,
  opts: RelayProcessOptions = {},
): Promise<RelayProcess> {
  const p = npxRelay(['listen', ...args], env, opts);
  const said = (): string => (opts.merged ? p.stdout() : p.stderr());
  const state = await eventually(
    async () => (p.child.exitCode !== null ? 'exited' : said().includes('Listening on') && 'listening'),
    60_000,
    'relay listen to connect',
  ).catch((err: Error) => err);
  if (state !== 'listening') {
    await p.kill('SIGKILL');
    throw new Error(
      `relay listen did not connect (${state instanceof Error ? state.message : `exited with ${p.child.exitCode}`})\n--- relay stderr ---\n${said()}`,
    );
  }
  return p;
}
