import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DEFAULT_LIMITS, THREAD_SHARE } from './limits';
import type { SandboxLimits } from './limits';
import type { CallArgs, RunResult } from './sandbox';
import { ThreadShares } from './shares';

export interface RunRequest {
  id: number;
  tenant: string;
  code: string;
  /** the arguments as text: a string crosses to the thread far cheaper than the objects */
  args: CallArgs;
}
/** A call's answer; `unrun`: the thread gave the call back without running it (worker.ts says when). */
export type RunResponse = { id: number; result: RunResult } | { id: number; unrun: true };

/** What the thread is given: the limits, and where it says which call it is running and since when. */
export interface ThreadData {
  limits: SandboxLimits;
  /** a call that ran longer than this gives back its tenant's later calls of the batch, unrun */
  longMs: number;
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
 * long goes alone, so a waiting tenant is never queued on the thread behind more than one. A
 * tenant whose short calls turn long gives back its later calls of a batch after the first long
 * one (worker.ts), and they are sent again by their new cost.
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
   * Waiting calls by tenant. The next call is the waiting tenant's with the most of its share of
   * the thread left (`shares`): a tenant whose calls run to their budget waits behind its own
   * calls, while another tenant's short calls go first, waiting for at most the one call running.
   * A tenant whose share was used up by calls that ran out of their budget has its calls refused
   * until the share is back (ThreadShares.refuses), so a runaway uses no more than its share.
   */
  private readonly queues = new Map<string, Job[]>();
  /** each tenant's share of the thread left, and what its next call is expected to take */
  private readonly shares = new ThreadShares(THREAD_SHARE, monotonicMs);
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
    if (this.shares.refuses(tenant)) return Promise.resolve(this.refused(tenant));
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
    let inFlightMs = this.inFlight.reduce((n, j) => n + this.expectedOf(j.tenant), 0);
    const now = monotonicMs();
    while (this.queues.size > 0 && this.inFlight.length < MAX_IN_FLIGHT) {
      let tenant = '';
      let most = -Infinity;
      for (const t of this.queues.keys()) {
        const left = this.shares.left(t, now);
        if (left > most) [tenant, most] = [t, left];
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
          // a thread replaced meanwhile: its calls were put back in their queues (requeueAround)
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
    this.requeueAround(running, () =>
      this.finish(running, {
        ok: false,
        failure: { kind: 'timeout', message: `stopped after ${this.limits.timeMs} ms`, line: null },
        logs: [],
        durationMs: monotonicMs() - since,
      }),
    );
    this.pump();
  }

  /** The call the thread says it is running, if it is one in flight. */
  private runningOn(w: SandboxThread): Job | undefined {
    const id = Atomics.load(w.running.id, 0);
    return id === 0 ? undefined : this.inFlight.find((j) => j.id === id);
  }

  private finish(job: Job, result: RunResult): void {
    const ranOut = !result.ok && (result.failure.kind === 'timeout' || result.failure.kind === 'memory');
    this.shares.charge(job.tenant, result.durationMs, ranOut);
    this.leave(job);
    job.done(result);
    // its share used up by a runaway call: the tenant's waiting calls are answered now, not run
    if (this.shares.refuses(job.tenant)) this.refuseWaiting(job.tenant);
  }

  private leave(job: Job): void {
    const at = this.inFlight.indexOf(job);
    if (at >= 0) this.inFlight.splice(at, 1);
  }

  /** Calls the thread gave back unrun (worker.ts): to the front of their queues, in their order, or refused. */
  private giveBack(jobs: Job[]): void {
    for (const job of jobs.reverse()) {
      this.leave(job);
      if (this.shares.refuses(job.tenant)) job.done(this.refused(job.tenant));
      else this.enqueue(job, true);
    }
  }

  private refuseWaiting(tenant: string): void {
    const waiting = this.queues.get(tenant);
    this.queues.delete(tenant);
    for (const job of waiting ?? []) job.done(this.refused(tenant));
  }

  /** What a refused call comes to: a failure like a timeout's, saying why and for how long. */
  private refused(tenant: string): RunResult {
    const seconds = (this.shares.backInMs(tenant) / 1000).toFixed(1);
    const share = `${THREAD_SHARE.fraction * 100}% of its time`;
    const message = `not run: this account's transformations ran out of their time budget and used up its share of the sandbox (${share}); calls run again in ${seconds} s`;
    return { ok: false, failure: { kind: 'over_share', message, line: null }, logs: [], durationMs: 0 };
  }

  /**
   * The thread is gone while running `job`: the calls it ran before it, their answers lost, go
   * back to the front of their queues to run again; those after it never ran, and are given back
   * as the thread gives back calls (giveBack), after `ended` (what `job` came to, which may leave
   * its tenant refused). `job` stays the one call in flight unless `ended` finished it.
   */
  private requeueAround(job: Job | undefined, ended?: () => void): void {
    const at = job ? this.inFlight.indexOf(job) : -1;
    const ran = this.inFlight.slice(0, Math.max(at, 0));
    const unrun = this.inFlight.slice(at + 1);
    this.inFlight = at < 0 ? [] : [job!];
    ended?.();
    this.giveBack(unrun);
    for (const j of ran.reverse()) this.enqueue(j, true);
  }

  /** unknown (its calls not seen lately): the whole budget, so it is sent alone */
  private expectedOf(tenant: string): number {
    return this.shares.expectedMs(tenant) ?? this.limits.timeMs;
  }

  private workerOf(): SandboxThread {
    if (this.worker) return this.worker;
    // the package's built worker, whether this module runs built (dist/) or from source (src/)
    const running: ThreadData['running'] = {
      id: new Int32Array(new SharedArrayBuffer(4)),
      startedAt: new Float64Array(new SharedArrayBuffer(8)),
    };
    const workerData: ThreadData = { limits: this.limits, longMs: PIPELINE_MS, running };
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
      const unrun: Job[] = [];
      for (const answer of m) {
        const job = this.inFlight.find((j) => j.id === answer.id);
        if (!job) continue;
        if ('unrun' in answer) unrun.push(job);
        else this.finish(job, answer.result);
      }
      this.giveBack(unrun);
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
      this.requeueAround(running);
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
