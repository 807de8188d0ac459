import { CLASSES } from './cases';
import type { ClassName, Ctx, HostileCase } from './cases';
import { pickGenerator } from './mix';
import { judge } from './oracle';
import { stalledRequest } from './protocol-classes';
import { rawExchange } from './raw-http';
import type { RawResult } from './raw-http';

export interface RunOptions {
  host: string;
  port: number;
  /** requests in all, stalled senders included */
  total: number;
  /** senders that stop mid-request, started first and run beside the mix */
  stalls: number;
  concurrency: number;
  /** an answer (or close) must come this soon after the last byte sent */
  answerBoundMs: number;
  /** a stalled sender must be answered or disconnected this soon */
  stallBoundMs: number;
  /** after answering a `Connection: close` request the server must close within this */
  closeGraceMs: number;
  /** called every so often while the run goes on (memory sampling) */
  onTick?: () => void;
}

export interface Failure {
  index: number;
  what: string;
  problem: string;
  /** the first bytes sent, to reproduce by hand */
  sent: string;
}

export interface ClassReport {
  sent: number;
  failed: number;
  /** one failure of each kind (the request's description and the problem, digits aside), with how many were alike */
  failures: Array<Failure & { alike: number }>;
  /** answers seen, by status ("closed" = closed unanswered, "hang" = nothing within the bound) */
  outcomes: Record<string, number>;
  slowestMs: number;
}

export interface RunReport {
  byClass: Record<ClassName, ClassReport>;
  sent: number;
  elapsedMs: number;
}

/** Sends `total` generated requests, `concurrency` at a time, and judges every answer. */
export async function runHostile(ctx: Ctx, opts: RunOptions): Promise<RunReport> {
  const byClass = {} as Record<ClassName, ClassReport>;
  for (const c of CLASSES) byClass[c] = { sent: 0, failed: 0, failures: [], outcomes: {}, slowestMs: 0 };
  const started = Date.now();
  let index = 0;
  const exchange = async (c: HostileCase, i: number): Promise<void> => {
    const bound = c.stalls ? opts.stallBoundMs : opts.answerBoundMs;
    const result = await rawExchange(c.plan, {
      host: opts.host,
      port: opts.port,
      boundMs: bound,
      closeGraceMs: opts.closeGraceMs,
      head: c.head,
    });
    record(byClass[c.cls], c, i, result);
  };
  // stalled senders first, so their wait overlaps the mix instead of adding to it
  const stalled: Array<Promise<void>> = [];
  for (let s = 0; s < opts.stalls; s++) stalled.push(exchange(stalledRequest(ctx), index++));
  const mixTotal = Math.max(0, opts.total - opts.stalls);
  let next = 0;
  const tick = setInterval(() => opts.onTick?.(), 250);
  const worker = async (): Promise<void> => {
    while (next < mixTotal) {
      next++;
      // generated when sent, in one order: the seed reproduces the run (timestamps in signatures stay fresh)
      const c = pickGenerator(ctx)(ctx);
      await exchange(c, index++);
    }
  };
  try {
    await Promise.all([...Array.from({ length: opts.concurrency }, worker), ...stalled]);
  } finally {
    clearInterval(tick);
  }
  return { byClass, sent: index, elapsedMs: Date.now() - started };
}

const KEPT_KINDS = 20;

function record(report: ClassReport, c: HostileCase, index: number, result: RawResult): void {
  report.sent++;
  const outcome = result.timedOut
    ? 'hang'
    : result.responses.length === 0
      ? 'closed'
      : result.responses.map((r) => r.status).join('+');
  report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1;
  if (result.answerMs !== null) report.slowestMs = Math.max(report.slowestMs, result.answerMs);
  const problem = judge(result, c.expect, c.head);
  if (!problem) return;
  report.failed++;
  const kind = `${c.what} => ${problem}`.replace(/\d+/g, 'N');
  const alike = report.failures.find((f) => `${f.what} => ${f.problem}`.replace(/\d+/g, 'N') === kind);
  if (alike) alike.alike++;
  else if (report.failures.length < KEPT_KINDS)
    report.failures.push({
      index,
      what: c.what,
      problem,
      sent: JSON.stringify(c.plan.parts[0]!.bytes.subarray(0, 120).toString('latin1')),
      alike: 1,
    });
}
