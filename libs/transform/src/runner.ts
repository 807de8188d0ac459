import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DEFAULT_LIMITS } from './limits';
import type { SandboxLimits } from './limits';
import type { RunResult } from './sandbox';

export interface RunRequest {
  id: number;
  tenant: string;
  code: string;
  args: unknown[];
}
export interface RunResponse {
  id: number;
  result: RunResult;
}

interface Job extends RunRequest {
  done(result: RunResult): void;
  /** sent once to a thread that ended before answering */
  resent?: boolean;
}

/**
 * The sandbox on a thread of its own, one call at a time. QuickJS checks its interrupt handler
 * while code runs, not while the engine collects garbage: a loop of allocations at the memory
 * limit ran 20 s unchecked before failing. A watchdog terminates the thread when a call outlives its
 * budget by `graceMs`, and the next call starts a new one. The grace is wide: the budget itself is
 * enforced inside the sandbox, and a new thread's first message took 300 ms on a busy machine. The caller's event loop is never
 * blocked, so other deliveries go on while a call runs. The thread starts on the first call: a
 * process whose endpoints have no transformation never creates one.
 */
export class TransformRunner {
  readonly limits: SandboxLimits;
  private worker: { thread: Worker; ready: Promise<void> } | null = null;
  /**
   * Waiting calls by tenant. The next call is the waiting tenant's that used the least sandbox
   * time so far (`used`): a tenant whose calls run to their budget waits behind its own calls,
   * while another tenant's short calls go first, waiting for at most the one call running.
   */
  private readonly queues = new Map<string, Job[]>();
  /** sandbox ms each tenant used, halved every second so the past fades; idle tenants are forgotten */
  private readonly used = new Map<string, number>();
  private decayedAt = performance.now();
  private running: Job | null = null;
  private nextId = 1;
  /** ends the running call when it outlives its budget by the grace */
  private watchdog: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    limits: Partial<SandboxLimits> = {},
    private readonly graceMs = 2000,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Calls the transformation; resolves with what it came to (never rejects for what the code does). */
  run(tenant: string, code: string, args: unknown[]): Promise<RunResult> {
    if (this.closed) return Promise.reject(new Error('transform runner closed'));
    return new Promise((done) => {
      const job = { id: this.nextId++, tenant, code, args, done };
      const waiting = this.queues.get(tenant);
      if (waiting) waiting.push(job);
      else this.queues.set(tenant, [job]);
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = null;
    if (w) await w.thread.terminate();
  }

  private pump(): void {
    if (this.running || this.queues.size === 0 || this.closed) return;
    this.decay();
    let tenant = '';
    let least = Infinity;
    for (const t of this.queues.keys()) {
      const u = this.used.get(t) ?? 0;
      if (u < least) [tenant, least] = [t, u];
    }
    const waiting = this.queues.get(tenant)!;
    const job = waiting.shift()!;
    if (waiting.length === 0) this.queues.delete(tenant);
    this.running = job;
    const w = this.workerOf();
    const finish = (result: RunResult): void => {
      clearTimeout(this.watchdog);
      this.used.set(job.tenant, (this.used.get(job.tenant) ?? 0) + result.durationMs);
      w.thread.off('message', onMessage);
      this.running = null;
      job.done(result);
      this.pump();
    };
    const onMessage = (m: RunResponse | 'ready'): void => {
      if (m !== 'ready' && m.id === job.id) finish(m.result);
    };
    w.thread.on('message', onMessage);
    const start = (): void => {
      if (this.running !== job) return;
      const started = performance.now();
      this.watchdog = setTimeout(() => {
        // the thread is stuck inside a built-in: it is replaced, and this call is a timeout
        this.worker = null;
        void w.thread.terminate();
        finish({
          ok: false,
          failure: { kind: 'timeout', message: `stopped after ${this.limits.timeMs} ms`, line: null },
          logs: [],
          durationMs: performance.now() - started,
        });
      }, this.limits.timeMs + this.graceMs);
      const request: RunRequest = { id: job.id, tenant: job.tenant, code: job.code, args: job.args };
      w.thread.postMessage(request);
    };
    w.ready.then(start, (err: Error) =>
      finish({
        ok: false,
        failure: { kind: 'threw', message: `the sandbox could not start: ${err.message}`, line: null },
        logs: [],
        durationMs: 0,
      }),
    );
  }

  private decay(): void {
    const halvings = Math.floor((performance.now() - this.decayedAt) / 1000);
    if (halvings === 0) return;
    this.decayedAt += halvings * 1000;
    for (const [t, u] of this.used) {
      const left = u / 2 ** halvings;
      if (left < 0.01 && !this.queues.has(t)) this.used.delete(t);
      else this.used.set(t, left);
    }
  }

  private workerOf(): { thread: Worker; ready: Promise<void> } {
    if (this.worker) return this.worker;
    // the package's built worker, whether this module runs built (dist/) or from source (src/)
    const thread = new Worker(join(__dirname, '..', 'dist', 'worker.js'), {
      workerData: this.limits,
      // the thread's own heap stays small: the sandbox's memory lives in its WebAssembly memory
      resourceLimits: { maxOldGenerationSizeMb: 64 },
    });
    thread.unref();
    const ready = new Promise<void>((resolve, reject) => {
      thread.once('message', (m) => (m === 'ready' ? resolve() : undefined));
      thread.once('error', reject);
    });
    const made = { thread, ready };
    thread.on('error', () => {
      if (this.worker === made) this.worker = null;
    });
    thread.on('exit', () => {
      if (this.worker === made) this.worker = null;
      // a thread that ended before answering (it exits after a call that left its engine
      // unusable, maybe with the next call already sent): the call is sent once more, to a new thread
      if (this.running && this.worker === null && !this.closed) {
        const job = this.running;
        this.running = null;
        clearTimeout(this.watchdog);
        thread.removeAllListeners('message');
        if (job.resent)
          job.done({
            ok: false,
            failure: { kind: 'threw', message: 'the sandbox stopped', line: null },
            logs: [],
            durationMs: 0,
          });
        else this.queues.set(job.tenant, [{ ...job, resent: true }, ...(this.queues.get(job.tenant) ?? [])]);
        this.pump();
      }
    });
    this.worker = made;
    return made;
  }
}
