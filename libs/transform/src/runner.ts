import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DEFAULT_LIMITS } from './limits';
import type { SandboxLimits } from './limits';
import type { CallArgs, RunResult } from './sandbox';

export interface RunRequest {
  id: number;
  tenant: string;
  code: string;
  /** the arguments as text: a string crosses to the thread far cheaper than the objects */
  args: CallArgs;
}
export interface RunResponse {
  id: number;
  result: RunResult;
}

/** What the thread is given: the limits, and where it says which call it is running and since when. */
export interface ThreadData {
  limits: SandboxLimits;
  running: {
    /** the id of the call running; 0 between calls */
    id: Int32Array;
    /** when it started, in ms on the process's monotonic clock (monotonicMs) */
    startedAt: Float64Array;
  };
}

interface SandboxThread {
  thread: Worker;
  /** it answered 'ready': calls are sent */
  ready: boolean;
  /** calls to send at the end of this turn of the event loop, as one message */
  outbox: RunRequest[];
  running: ThreadData['running'];
  /** since when (monotonicMs) calls are in flight and the thread gave no answer */
  quietSince: number;
}

interface Job extends RunRequest {
  done(result: RunResult): void;
  /** sent once to a thread that ended before answering */
  resent?: boolean;
}

/*
 * How much sandbox time the calls sent to the thread may be expected to add up to. Short calls
 * go several at a time, so the thread does not wait for this event loop between them (one at a
 * time, a busy deliverer's loop left the thread idle for most of each call); a call that may be
 * long goes alone, so a waiting tenant is never queued on the thread behind more than one.
 */
const PIPELINE_MS = 4;
const MAX_IN_FLIGHT = 32;

/**
 * The sandbox on a thread of its own. QuickJS checks its interrupt handler while code runs, not
 * while the engine collects garbage: a loop of allocations at the memory limit ran 20 s unchecked
 * before failing. A watchdog terminates the thread when a call outlives its budget by `graceMs`,
 * and the next call starts a new one. The thread answers calls several at a time and says in
 * shared memory which one it is running, so one timer serves all the calls in flight. The grace is wide: the budget itself is enforced inside the
 * sandbox, and a new thread's first message took 300 ms on a busy machine. The caller's event
 * loop is never blocked, so other deliveries go on while a call runs. The thread starts on the
 * first call: a process whose endpoints have no transformation never creates one.
 */
export class TransformRunner {
  readonly limits: SandboxLimits;
  private worker: SandboxThread | null = null;
  /**
   * Waiting calls by tenant. The next call is the waiting tenant's that used the least sandbox
   * time so far (`used`): a tenant whose calls run to their budget waits behind its own calls,
   * while another tenant's short calls go first, waiting for at most the one call running.
   */
  private readonly queues = new Map<string, Job[]>();
  /** sandbox ms each tenant used, halved every second so the past fades; idle tenants are forgotten */
  private readonly used = new Map<string, number>();
  /** what a tenant's next call is expected to take: its recent calls' time (unknown: the whole budget) */
  private readonly expected = new Map<string, number>();
  private decayedAt = performance.now();
  /** calls sent to the thread, in the order it runs them: the first is running */
  private inFlight: Job[] = [];
  private nextId = 1;
  /** ends the running call when it outlives its budget by the grace; armed while calls are in flight */
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
    return this.call(tenant, code, { json: JSON.stringify(args) });
  }

  /** The same, the arguments as the sandbox takes them (Sandbox.call). */
  call(tenant: string, code: string, args: CallArgs): Promise<RunResult> {
    if (this.closed) return Promise.reject(new Error('transform runner closed'));
    return new Promise((done) => {
      this.enqueue({ id: this.nextId++, tenant, code, args, done });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.watchdog);
    const w = this.worker;
    this.worker = null;
    if (w) await w.thread.terminate();
  }

  private enqueue(job: Job, first = false): void {
    const waiting = this.queues.get(job.tenant);
    if (!waiting) this.queues.set(job.tenant, [job]);
    else if (first) waiting.unshift(job);
    else waiting.push(job);
  }

  /** Sends waiting calls, fairest first, while what is in flight is expected to be short. */
  private pump(): void {
    if (this.closed || this.queues.size === 0) return;
    const w = this.workerOf();
    if (!w.ready) return;
    this.decay();
    let inFlightMs = this.inFlight.reduce((n, j) => n + this.expectedOf(j.tenant), 0);
    while (this.queues.size > 0 && this.inFlight.length < MAX_IN_FLIGHT) {
      let tenant = '';
      let least = Infinity;
      for (const t of this.queues.keys()) {
        const u = this.used.get(t) ?? 0;
        if (u < least) [tenant, least] = [t, u];
      }
      const cost = this.expectedOf(tenant);
      if (this.inFlight.length > 0 && inFlightMs + cost > PIPELINE_MS) break;
      const waiting = this.queues.get(tenant)!;
      const job = waiting.shift()!;
      if (waiting.length === 0) this.queues.delete(tenant);
      inFlightMs += cost;
      if (this.inFlight.push(job) === 1) w.quietSince = monotonicMs();
      const request: RunRequest = { id: job.id, tenant: job.tenant, code: job.code, args: job.args };
      // calls sent in one turn of the event loop go to the thread as one message: waking the
      // thread once per call (a context switch on each side) cost more than most calls did
      if (w.outbox.push(request) === 1)
        setImmediate(() => {
          // a thread replaced meanwhile: its calls were put back in their queues (requeueAfter)
          if (this.worker === w) w.thread.postMessage(w.outbox);
          w.outbox = [];
        });
    }
    this.watch();
  }

  private watch(): void {
    if (this.watchdog === undefined && this.inFlight.length > 0)
      this.watchdog = setTimeout(() => this.check(), this.limits.timeMs + this.graceMs);
  }

  /**
   * The watchdog's turn: the call the thread is running is stopped when it outlived its budget by
   * the grace; when the thread is between calls, the first in flight is timed from its last answer.
   */
  private check(): void {
    this.watchdog = undefined;
    const w = this.worker;
    if (!w || this.inFlight.length === 0) return;
    const reported = this.runningOn(w);
    const running = reported ?? this.inFlight[0]!;
    // the id is read before the start: a start read after the thread moved on is a later one, never an earlier
    const since = reported ? w.running.startedAt[0]! : w.quietSince;
    const left = since + this.limits.timeMs + this.graceMs - monotonicMs();
    if (left > 0) {
      this.watchdog = setTimeout(() => this.check(), left);
      return;
    }
    // the thread is stuck inside a built-in: it is replaced, this call is a timeout, and the
    // other calls sent with it, never run or not answered, wait for the new thread
    this.worker = null;
    void w.thread.terminate();
    this.requeueAfter(running);
    this.finish(running, {
      ok: false,
      failure: { kind: 'timeout', message: `stopped after ${this.limits.timeMs} ms`, line: null },
      logs: [],
      durationMs: monotonicMs() - since,
    });
    this.pump();
  }

  /** The call the thread says it is running, if it is one in flight. */
  private runningOn(w: SandboxThread): Job | undefined {
    const id = Atomics.load(w.running.id, 0);
    return id === 0 ? undefined : this.inFlight.find((j) => j.id === id);
  }

  private finish(job: Job, result: RunResult): void {
    this.used.set(job.tenant, (this.used.get(job.tenant) ?? 0) + result.durationMs);
    const before = this.expected.get(job.tenant);
    this.expected.set(
      job.tenant,
      before === undefined ? result.durationMs : Math.max(result.durationMs, (before + result.durationMs) / 2),
    );
    const at = this.inFlight.indexOf(job);
    if (at >= 0) this.inFlight.splice(at, 1);
    job.done(result);
  }

  /** The calls in flight other than `job` go back to the front of their queues, in their order. */
  private requeueAfter(job: Job): void {
    const rest = this.inFlight.filter((j) => j !== job);
    this.inFlight = this.inFlight.includes(job) ? [job] : [];
    for (const j of rest.reverse()) this.enqueue(j, true);
  }

  private expectedOf(tenant: string): number {
    return this.expected.get(tenant) ?? this.limits.timeMs;
  }

  private decay(): void {
    const halvings = Math.floor((performance.now() - this.decayedAt) / 1000);
    if (halvings === 0) return;
    this.decayedAt += halvings * 1000;
    for (const [t, u] of this.used) {
      const left = u / 2 ** halvings;
      if (left < 0.01 && !this.queues.has(t)) {
        this.used.delete(t);
        this.expected.delete(t);
      } else this.used.set(t, left);
    }
  }

  private workerOf(): SandboxThread {
    if (this.worker) return this.worker;
    // the package's built worker, whether this module runs built (dist/) or from source (src/)
    const running: ThreadData['running'] = {
      id: new Int32Array(new SharedArrayBuffer(4)),
      startedAt: new Float64Array(new SharedArrayBuffer(8)),
    };
    const workerData: ThreadData = { limits: this.limits, running };
    const thread = new Worker(join(__dirname, '..', 'dist', 'worker.js'), {
      workerData,
      // the thread's own heap stays small: the sandbox's memory lives in its WebAssembly memory
      resourceLimits: { maxOldGenerationSizeMb: 64 },
    });
    thread.unref();
    const made: SandboxThread = { thread, ready: false, outbox: [], running, quietSince: 0 };
    thread.on('message', (m: RunResponse[] | 'ready') => {
      if (this.worker !== made) return;
      if (m === 'ready') {
        made.ready = true;
        this.pump();
        return;
      }
      made.quietSince = monotonicMs();
      for (const answer of m) {
        const job = this.inFlight.find((j) => j.id === answer.id);
        if (job) this.finish(job, answer.result);
      }
      if (this.inFlight.length === 0) {
        clearTimeout(this.watchdog);
        this.watchdog = undefined;
      }
      this.pump();
    });
    thread.on('error', (err: Error) => {
      if (this.worker !== made || made.ready) return;
      // a thread that could not start: the calls waiting for it are answered, none is run
      this.worker = null;
      for (const job of [...this.queues.values()].flat()) {
        const failure = { kind: 'threw' as const, message: `the sandbox could not start: ${err.message}`, line: null };
        job.done({ ok: false, failure, logs: [], durationMs: 0 });
      }
      this.queues.clear();
    });
    thread.on('exit', () => {
      if (this.worker !== made) return;
      this.worker = null;
      if (this.closed) return;
      // the thread ended (it exits after a call that left its engine unusable, or died in one):
      // the call it died in (else the first unanswered) is sent once more, to a new thread, and
      // the other calls in flight follow
      const running = this.runningOn(made) ?? this.inFlight[0];
      clearTimeout(this.watchdog);
      this.watchdog = undefined;
      this.requeueAfter(running!);
      this.inFlight = [];
      if (running) {
        if (running.resent)
          running.done({
            ok: false,
            failure: { kind: 'threw', message: 'the sandbox stopped', line: null },
            logs: [],
            durationMs: 0,
          });
        else this.enqueue({ ...running, resent: true }, true);
      }
      this.pump();
    });
    this.worker = made;
    return made;
  }
}

/**
 * ms on the monotonic clock every thread of the process shares (each thread's performance.now()
 * counts from its own start, and its timeOrigin follows the wall clock, which may be set back).
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
