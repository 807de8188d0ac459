import { Worker } from 'node:worker_threads';
import type { Logger } from '@relay/logging';
import type { PoolAnswer, RulePool } from '../../domain/ports';
import { RULE_STAGES } from '../../domain/rules/pooled-rules';
import type { PooledJob, RuleAt } from '../../domain/rules/pooled-rules';
import type { WorkerAnswer, WorkerTask } from './protocol';

/** how a job ended, as the metrics count it */
export type PoolResult = 'done' | 'deadline' | 'unusable' | 'busy_account' | 'busy_pool';

export interface RulePoolOptions {
  /** the built worker script (./worker.js beside this file in dist/) */
  filename: string;
  /** worker threads */
  size: number;
  /** a job still running this long after it started is stopped: its worker is replaced */
  deadlineMs: number;
  /** requests whose rules may cost at most this run inline (RulePool.inlineCost) */
  inlineCost: number;
  /** jobs waiting for a worker, all accounts together */
  queueMax: number;
  /** jobs one account may have waiting or running */
  accountMax: number;
  logger: Logger;
  /** told every answer, for the metrics */
  onAnswer?: (answer: PoolResult) => void;
}

interface Task {
  id: number;
  accountId: string;
  job: PooledJob;
  resolve: (answer: PoolAnswer) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  /** [stage index in RULE_STAGES or -1, rule (or target) index, routing rule index], written by the worker */
  progress: Int32Array;
  /** its modules loaded: it may be given a job */
  ready: boolean;
  task: Task | null;
  timer: NodeJS.Timeout | null;
}

/**
 * The rule pool over worker_threads (docs/security.md "Rule cost"). Fair between accounts: each
 * account has its own queue and a free worker takes the next job from the next account in turn,
 * so one account's costly jobs delay another's by at most one deadline per turn; an account may
 * have `accountMax` jobs waiting or running. A job past its deadline cannot be interrupted inside
 * re2js: its worker is terminated and a new one started in its place.
 */
export function createRulePool(opts: RulePoolOptions): RulePool & { close(): Promise<void> } {
  const waiting = new Map<string, Task[]>();
  const inFlight = new Map<string, number>();
  let queued = 0;
  let nextId = 1;
  let closed = false;

  const startWorker = (slot?: Slot): Slot => {
    const progress = new Int32Array(new SharedArrayBuffer(12));
    const worker = new Worker(opts.filename, { workerData: { progress: progress.buffer } });
    // the server keeps the process alive, never an idle pool
    worker.unref();
    const s: Slot = slot ?? { worker, progress, ready: false, task: null, timer: null };
    Object.assign(s, { worker, progress, ready: false });
    worker.on('message', (answer: WorkerAnswer) => {
      if ('ready' in answer) {
        s.ready = true;
        pump();
        return;
      }
      const task = s.task;
      if (task === null || task.id !== answer.id) return;
      if ('error' in answer) settle(s, () => task.reject(new Error(`rule pool worker: ${answer.error}`)));
      else if ('unusable' in answer) settle(s, () => task.resolve({ unusable: answer.unusable }), 'unusable');
      else settle(s, () => task.resolve({ done: answer.verdict }), 'done');
    });
    worker.on('error', (err) => {
      if (s.worker !== worker) return;
      opts.logger.error('rule pool worker failed; replaced', { error: err.message });
      const task = s.task;
      replace(s);
      if (task) settle(s, () => task.reject(err));
    });
    return s;
  };

  // started with the first job: most gateways serve endpoints whose rules all run inline, and a
  // worker costs its start-up CPU and its own heap
  const slots: Slot[] = [];

  /** ends the slot's task with `answer`, frees its account's place and gives the slot the next job */
  function settle(slot: Slot, answer: () => void, counted?: PoolResult): void {
    const task = slot.task!;
    if (slot.timer) clearTimeout(slot.timer);
    slot.task = null;
    slot.timer = null;
    const n = (inFlight.get(task.accountId) ?? 1) - 1;
    if (n === 0) inFlight.delete(task.accountId);
    else inFlight.set(task.accountId, n);
    if (counted) opts.onAnswer?.(counted);
    answer();
    pump();
  }

  function replace(slot: Slot): void {
    const old = slot.worker;
    old.removeAllListeners('message');
    void old.terminate();
    if (!closed) startWorker(slot);
  }

  function expire(slot: Slot): void {
    const task = slot.task!;
    const stage = Atomics.load(slot.progress, 0);
    const index = Atomics.load(slot.progress, 1);
    const at: RuleAt | null =
      stage < 0
        ? null
        : RULE_STAGES[stage] === 'routing'
          ? { stage: 'routing', index, rule: Atomics.load(slot.progress, 2) }
          : { stage: RULE_STAGES[stage]!, index };
    replace(slot);
    settle(slot, () => task.resolve({ deadline: at }), 'deadline');
  }

  /** the next account's next job, the account moved to the back of the turn */
  function nextTask(): Task | null {
    const first = waiting.entries().next();
    if (first.done) return null;
    const [accountId, tasks] = first.value;
    const task = tasks.shift()!;
    waiting.delete(accountId);
    if (tasks.length > 0) waiting.set(accountId, tasks);
    queued -= 1;
    return task;
  }

  function pump(): void {
    for (const slot of slots) {
      if (!slot.ready || slot.task !== null || closed) continue;
      const task = nextTask();
      if (task === null) return;
      slot.task = task;
      slot.timer = setTimeout(() => expire(slot), opts.deadlineMs);
      slot.worker.postMessage({ id: task.id, job: task.job } satisfies WorkerTask);
    }
  }

  return {
    inlineCost: opts.inlineCost,
    deadlineMs: opts.deadlineMs,
    evaluate(accountId, job) {
      if ((inFlight.get(accountId) ?? 0) >= opts.accountMax) {
        opts.onAnswer?.('busy_account');
        return Promise.resolve({ busy: 'account' });
      }
      if (queued >= opts.queueMax) {
        opts.onAnswer?.('busy_pool');
        return Promise.resolve({ busy: 'pool' });
      }
      if (slots.length === 0 && !closed) for (let i = 0; i < opts.size; i++) slots.push(startWorker());
      return new Promise<PoolAnswer>((resolve, reject) => {
        const task: Task = { id: nextId++, accountId, job, resolve, reject };
        inFlight.set(accountId, (inFlight.get(accountId) ?? 0) + 1);
        const tasks = waiting.get(accountId);
        if (tasks) tasks.push(task);
        else waiting.set(accountId, [task]);
        queued += 1;
        pump();
      });
    },
    /** terminates the workers; a job still waiting or running is answered as if the pool were full */
    async close() {
      closed = true;
      const unanswered = [...slots.flatMap((s) => (s.task ? [s.task] : [])), ...[...waiting.values()].flat()];
      for (const s of slots) if (s.timer) clearTimeout(s.timer);
      waiting.clear();
      for (const task of unanswered) task.resolve({ busy: 'pool' });
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
