import { hostname } from 'node:os';
import type { DeliveryPublisher } from '@relay/broker';
import type { ActivityLog } from '@relay/activity-log';
import type { Store } from '@relay/store';
import type { Logger } from '@relay/logging';
import { FINISHED, jobMatches, retryRow, zeroCounts } from '../domain/bulk-retry-job';
import type { RowRetryPorts } from '../domain/bulk-retry-job';
import { ERRORS_GROUP, PAGE_ROWS, targetLookup } from './bulk-retry-ports';
import type { BulkRetryStore, JobDoc, ProgressDoc } from './bulk-retry-store';
import type { ResendAllowance } from './resend-allowance';

export interface RunnerOptions {
  store: Store;
  activityLog: ActivityLog;
  jobs: BulkRetryStore;
  deliveries: DeliveryPublisher;
  /** the per-event ceiling of added deliveries, shared with resends (a bulk retry adds deliveries to rows too) */
  allowance: ResendAllowance;
  logger: Logger;
  /** BULK_RETRY_LEASE_MS: a run not renewed for this long is taken over by another instance */
  leaseMs: number;
  /** BULK_RETRY_POLL_MS */
  pollMs: number;
  /** finished jobs are deleted this long after they finished: the activity retention period, past which their rows are gone too */
  keepFinishedMs: number;
  now?: () => number;
}

/** How often an instance deletes old finished jobs, and how many at most each time. */
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_MAX = 100;

/** How often a run looks for a cancel request while it works (one read by `_id`). */
const CANCEL_CHECK_MS = 500;
/**
 * Runs a job may take before it is given up as `failed`: a run ends early only on an error (the
 * store or broker unreachable, or a bug), and one that keeps failing must not be retaken forever.
 */
export const MAX_RUNS = 20;

export interface BulkRetryRunner {
  start(): void;
  /** Stops after the row in hand, saves where it got to and releases the lease, so another instance resumes at once. */
  stop(): Promise<void>;
}

/**
 * Runs bulk retries in the background of each management-api instance, one job at a time per
 * instance: finds jobs by their slots, takes a run by inserting its lease, walks the job's
 * window of the Errors group newest first from its saved cursor (the activity listing, by
 * `_id` only), retries each row at the job's rate, and saves the cursor and counts after each
 * page. A crash loses at most the page in hand: whoever takes the next run starts from the last
 * saved cursor and publishes that page's deliveries again under the same ids.
 */
export function createBulkRetryRunner(opts: RunnerOptions): BulkRetryRunner {
  const now = opts.now ?? Date.now;
  const owner = `${hostname()}:${process.pid}`;
  const log = opts.activityLog;
  const targetOf = targetLookup(opts.store, now);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopping = false;
  let prunedAt = 0;

  /** One pass over the slots: the first job that is neither finished nor held by a live lease is taken. */
  async function poll(): Promise<void> {
    const slots = await opts.jobs.slots();
    let finishedBelow: number | null = null;
    for (const { n, jobId } of slots) {
      if (stopping) return;
      const status = await opts.jobs.status(jobId);
      const finished = status.progress !== null && FINISHED.includes(status.progress.state);
      if (finished) {
        if (finishedBelow === null || finishedBelow === n) finishedBelow = n + 1;
        continue;
      }
      finishedBelow = finishedBelow ?? -1; // an unfinished job stops the low-water mark here
      if (status.lease && status.lease.expires_at > now()) continue;
      const job = await opts.jobs.job(jobId);
      if (!job) continue;
      if (!(await opts.jobs.claim(jobId, status.runs, owner, now() + opts.leaseMs))) continue;
      if (status.runs >= MAX_RUNS) {
        await giveUp(job, status.runs, status.progress);
        continue;
      }
      await run(job, status.runs, status.progress);
      break;
    }
    if (finishedBelow !== null && finishedBelow > 0) await opts.jobs.advanceLow(finishedBelow);
    if (now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = now();
      const pruned = await opts.jobs.prune(new Date(now() - opts.keepFinishedMs), PRUNE_MAX);
      if (pruned > 0) opts.logger.info('old bulk retry jobs deleted', { jobs: pruned });
    }
  }

  async function giveUp(job: JobDoc, epoch: number, previous: ProgressDoc | null): Promise<void> {
    const at = new Date(now());
    const { _id: _previousId, ...before } = previous ?? {
      _id: '',
      cursor: null,
      counts: zeroCounts(),
      started_at: at,
      error: null,
    };
    await opts.jobs.saveProgress(
      job._id,
      epoch,
      {
        ...before,
        state: 'failed',
        updated_at: at,
        finished_at: at,
        error: `given up after ${MAX_RUNS} runs; last error: ${before.error ?? 'none recorded'}`,
      },
      true,
    );
    opts.logger.error('bulk retry given up', { job_id: job._id, runs: epoch, error: before.error });
  }

  async function run(job: JobDoc, epoch: number, previous: ProgressDoc | null): Promise<void> {
    const tag = job._id.slice(4, 20); // brj_ + 16-character tag (routes: newJobId)
    const started = new Date(now());
    const { _id: _previousId, ...before } = previous ?? {
      _id: '',
      cursor: null,
      counts: zeroCounts(),
      started_at: started,
      finished_at: null,
      error: null,
    };
    const progress: Omit<ProgressDoc, '_id'> = {
      ...before,
      counts: { ...before.counts },
      state: 'running',
      updated_at: started,
    };
    await opts.jobs.saveProgress(job._id, epoch, progress, true);
    opts.logger.info('bulk retry run started', {
      job_id: job._id,
      run: epoch,
      account_id: job.account_id,
      resumed: previous !== null,
    });

    let lost = false;
    const renew = setInterval(
      () => {
        void (async () => {
          if (await opts.jobs.superseded(job._id, epoch)) lost = true;
          else await opts.jobs.renew(job._id, epoch, now() + opts.leaseMs);
        })().catch((err: unknown) =>
          opts.logger.warn('bulk retry lease not renewed', { job_id: job._id, error: (err as Error).message }),
        );
      },
      Math.max(100, Math.floor(opts.leaseMs / 3)),
    );

    let cancelCheckedAt = 0;
    const cancelled = async (): Promise<boolean> => {
      if (now() - cancelCheckedAt < CANCEL_CHECK_MS) return false;
      cancelCheckedAt = now();
      return opts.jobs.cancelRequested(job._id);
    };
    let nextSlotAt = now();
    const ports: RowRetryPorts = {
      row: (id) => log.row(id),
      payload: (id) => log.payload(id),
      target: (id) => targetOf(id, job.account_id),
      // fails closed like a resend: Redis unreachable ends the run, which resumes later
      take: async (id, n) => (await opts.allowance.take(job.account_id, id, n)).ok,
      giveBack: (id, n) => opts.allowance.giveBack(job.account_id, id, n),
      publish: (d) => opts.deliveries.publish(d),
      // the job's rate: deliveries are spaced 1/rate s apart, so a job can never flood the broker
      async pace(n) {
        const wait = nextSlotAt - now();
        nextSlotAt = Math.max(nextSlotAt, now()) + (n * 1000) / job.rate_per_second;
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      },
    };
    const save = async (fields: Partial<ProgressDoc>) => {
      Object.assign(progress, fields, { updated_at: new Date(now()) });
      if (await opts.jobs.superseded(job._id, epoch)) lost = true;
      else await opts.jobs.saveProgress(job._id, epoch, progress, false);
    };

    try {
      const { filter } = job;
      for (;;) {
        if (lost || stopping) break;
        if (await cancelled()) {
          await save({ state: 'cancelled', finished_at: new Date(now()) });
          break;
        }
        const page = await log.list({
          ...ERRORS_GROUP,
          account: job.account_id,
          endpointId: filter.endpoint_id,
          fromMs: filter.from_ms,
          toMs: filter.to_ms,
          cursor: progress.cursor,
          limit: PAGE_ROWS,
          where: (e) => jobMatches(filter, e),
        });
        let stoppedEarly = false;
        for (const entry of page.rows) {
          if (lost || stopping || (await cancelled())) {
            stoppedEarly = true;
            break;
          }
          await retryRow(entry, filter, tag, ports, progress.counts);
        }
        // a page cut short is done again from its start by the next run (same delivery ids)
        if (stoppedEarly) {
          if (!lost && (await opts.jobs.cancelRequested(job._id)))
            await save({ state: 'cancelled', finished_at: new Date(now()) });
          break;
        }
        const next = page.next_cursor;
        if (next === null) {
          await save({ cursor: null, state: 'done', finished_at: new Date(now()) });
          break;
        }
        await save({ cursor: next });
      }
    } catch (err) {
      // a store or broker outage: the run ends; its lease expires and a run resumes from the cursor
      opts.logger.warn('bulk retry run interrupted; it resumes from its last saved page', {
        job_id: job._id,
        run: epoch,
        error: (err as Error).message,
      });
      progress.error = (err as Error).message.slice(0, 300);
      await opts.jobs
        .saveProgress(job._id, epoch, { ...progress, updated_at: new Date(now()) }, false)
        .catch(() => undefined);
    } finally {
      clearInterval(renew);
    }
    if (stopping && !lost && !FINISHED.includes(progress.state)) {
      await opts.jobs
        .saveProgress(job._id, epoch, { ...progress, updated_at: new Date(now()) }, false)
        .catch(() => undefined);
      await opts.jobs.renew(job._id, epoch, 0).catch(() => undefined);
    }
    opts.logger.info('bulk retry run ended', {
      job_id: job._id,
      run: epoch,
      state: progress.state,
      superseded: lost,
      ...progress.counts,
    });
  }

  const tick = () => {
    if (running || stopping) return;
    running = poll()
      .catch((err: unknown) => void opts.logger.warn('bulk retry poll failed', { error: (err as Error).message }))
      .finally(() => {
        running = null;
      });
  };

  return {
    start() {
      timer = setInterval(tick, opts.pollMs);
      timer.unref();
      tick();
    },
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
