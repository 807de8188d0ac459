import { keyedCollection, mapLimit } from '@relay/store';
import type { KeyedCollection, Store } from '@relay/store';
import { FINISHED } from '../domain/bulk-retry-job';
import type { BulkRetryFilter, JobCounts, JobState } from '../domain/bulk-retry-job';

/** A job as created: never changed afterwards. */
export interface JobDoc {
  _id: string;
  account_id: string;
  filter: BulkRetryFilter;
  rate_per_second: number;
  created_at: Date;
  /** the API key prefix that created it */
  created_by: string;
  /** its place in the account's list (`account|<account>|<n>`); absent on jobs made before the list existed */
  account_slot?: number;
}

/** The claim of one run (epoch) of a job; only its holder renews it. */
export interface LeaseDoc {
  _id: string;
  owner: string;
  /** ms since the epoch; 0 once released */
  expires_at: number;
}

/** Where one run got to; written only by the holder of that run's lease. */
export interface ProgressDoc {
  _id: string;
  state: JobState;
  /** encoded listing position (an activity list's next_cursor) to continue from; null: from the newest row */
  cursor: string | null;
  counts: JobCounts;
  started_at: Date | null;
  updated_at: Date;
  finished_at: Date | null;
  error: string | null;
}

interface CancelDoc {
  _id: string;
  at: Date;
  by: string;
}

interface SlotDoc {
  _id: string;
  job_id?: string;
  /** on `queue|low`: every slot below it holds a finished job; on `queue|pruned`: every slot below it is gone */
  n?: number;
}

type AnyDoc = JobDoc | LeaseDoc | ProgressDoc | CancelDoc | SlotDoc;

export interface JobStatus {
  /** runs started so far (leases taken) */
  runs: number;
  lease: LeaseDoc | null;
  progress: ProgressDoc | null;
  cancelRequested: boolean;
}

const leaseId = (job: string, epoch: number) => `${job}|lease|${epoch}`;
const progressId = (job: string, epoch: number) => `${job}|progress|${epoch}`;
const cancelId = (job: string) => `${job}|cancel`;
const slotId = (n: number) => `queue|${n}`;
const LOW_ID = 'queue|low';
const PRUNED_ID = 'queue|pruned';
const accountSlotId = (account: string, n: number) => `account|${account}|${n}`;
/** a hint: every account slot below it is taken (raised after each take; a lagging one costs reads) */
const accountTopId = (account: string) => `account|${account}|top`;

/** How many jobs a status read covers at once when listing (each is a few reads by `_id`). */
const LIST_READS_AT_ONCE = 8;

export interface JobListPage {
  jobs: { job: JobDoc; status: JobStatus }[];
  /** the account slot to continue below (`before`), or null when the list has no more */
  next: number | null;
}

/**
 * Bulk retry jobs in the store (collection `bulk_retries`), every access by `_id` (FerretDB
 * serves nothing else without scanning; docs/architecture.md). FerretDB makes no update
 * atomic and lets concurrent conditional updates all succeed, so nothing here relies on one:
 * - a run of a job is claimed by **inserting** `<job>|lease|<epoch>` (a unique `_id` is the one
 *   exclusive operation there); the holder alone renews it and alone writes that run's progress
 *   `<job>|progress|<epoch>`, so no document has two writers;
 * - a newer epoch fences an older run: a holder that sees `<job>|lease|<epoch+1>` stops;
 * - a cancel is the insert of `<job>|cancel`, never an update the running holder could overwrite;
 * - jobs are found by their slots `queue|0`, `queue|1` … (inserted, never changed) from a low-water
 *   hint `queue|low` below which every job is finished;
 * - finished jobs are deleted once they are older than the activity they retried (`prune`), from
 *   the oldest slot up, below `queue|pruned`; so the collection, which every `_id` read scans on
 *   FerretDB, holds about one retention period of jobs, not every job ever made.
 */
export class BulkRetryStore {
  private readonly docs: KeyedCollection<AnyDoc>;
  private nextSlot = 0;

  constructor(store: Store) {
    this.docs = keyedCollection(store.connection.collection<AnyDoc>('bulk_retries'));
  }

  /**
   * Takes the job's place in its account's list, stores the job, then gives it the next free
   * slot so runners find it. A crash between the first two leaves a list slot with no job,
   * which the list skips.
   */
  async create(job: JobDoc): Promise<void> {
    const accountSlot = await this.takeAccountSlot(job.account_id, job._id);
    await this.docs.insertNew([{ ...job, account_slot: accountSlot }]);
    for (let tries = 0; tries < 1000; tries++) {
      const n = await this.freeSlot();
      if ((await this.docs.insertNew([{ _id: slotId(n), job_id: job._id }])).length === 0) {
        this.nextSlot = n + 1;
        return;
      }
      this.nextSlot = n + 1; // another instance took it
    }
    throw new Error('no free bulk retry slot after 1000 tries');
  }

  /**
   * The account's jobs, newest first: up to `limit` below account slot `before` (or from the
   * newest), each with its status. Reads the page's slots and jobs by `_id` only; stops at the
   * first slot that is gone, as jobs are deleted oldest first (`prune`).
   */
  async list(account: string, limit: number, before: number | null): Promise<JobListPage> {
    const top = before ?? (await this.accountTop(account));
    const found: JobDoc[] = [];
    let n = top - 1;
    let ended = false;
    for (; n >= 0 && found.length < limit; n--) {
      const slot = (await this.docs.get(accountSlotId(account, n))) as SlotDoc | null;
      if (!slot?.job_id) {
        ended = true;
        break;
      }
      // a place whose job is missing: a create that stopped between the two inserts
      const job = await this.job(slot.job_id);
      if (job) found.push(job);
    }
    const more = !ended && n >= 0 && (await this.docs.get(accountSlotId(account, n))) !== null;
    const statuses = await mapLimit(found, LIST_READS_AT_ONCE, (job) => this.status(job._id));
    return { jobs: found.map((job, i) => ({ job, status: statuses[i]! })), next: more ? n + 1 : null };
  }

  async job(jobId: string): Promise<JobDoc | null> {
    const doc = (await this.docs.get(jobId)) as JobDoc | null;
    return doc && 'account_id' in doc ? doc : null;
  }

  /** The job's latest run and where it got to (a run that wrote nothing yet shows the one before). */
  async status(jobId: string): Promise<JobStatus> {
    let runs = 0;
    while (await this.docs.get(leaseId(jobId, runs))) runs += 1;
    const lease = runs > 0 ? ((await this.docs.get(leaseId(jobId, runs - 1))) as LeaseDoc) : null;
    let progress: ProgressDoc | null = null;
    for (let e = runs - 1; e >= 0 && !progress; e--)
      progress = (await this.docs.get(progressId(jobId, e))) as ProgressDoc | null;
    return { runs, lease, progress, cancelRequested: (await this.docs.get(cancelId(jobId))) !== null };
  }

  async requestCancel(jobId: string, by: string, at: Date): Promise<void> {
    await this.docs.insertNew([{ _id: cancelId(jobId), at, by }]);
  }

  async cancelRequested(jobId: string): Promise<boolean> {
    return (await this.docs.get(cancelId(jobId))) !== null;
  }

  /** Takes run `epoch` of the job; false when another instance took it first. */
  async claim(jobId: string, epoch: number, owner: string, expiresAt: number): Promise<boolean> {
    return (await this.docs.insertNew([{ _id: leaseId(jobId, epoch), owner, expires_at: expiresAt }])).length === 0;
  }

  async renew(jobId: string, epoch: number, expiresAt: number): Promise<void> {
    await this.docs.update([{ id: leaseId(jobId, epoch), update: { $set: { expires_at: expiresAt } } }]);
  }

  /** True once a later run was claimed: this run must stop writing. */
  async superseded(jobId: string, epoch: number): Promise<boolean> {
    return (await this.docs.get(leaseId(jobId, epoch + 1))) !== null;
  }

  async saveProgress(jobId: string, epoch: number, progress: Omit<ProgressDoc, '_id'>, first: boolean): Promise<void> {
    const id = progressId(jobId, epoch);
    if (first) await this.docs.insertNew([{ _id: id, ...progress }]);
    else await this.docs.update([{ id, update: { $set: progress } }]);
  }

  /** Job ids from the low-water slot on, oldest first, with the slot number of each. */
  async slots(): Promise<{ n: number; jobId: string }[]> {
    const low = ((await this.docs.get(LOW_ID)) as SlotDoc | null)?.n ?? 0;
    const out: { n: number; jobId: string }[] = [];
    for (let n = low; ; n++) {
      const slot = (await this.docs.get(slotId(n))) as SlotDoc | null;
      if (!slot?.job_id) break;
      out.push({ n, jobId: slot.job_id });
    }
    return out;
  }

  /** Every slot below `n` holds a finished job. A hint only: a lower value written by a racing instance costs reads, never a job. */
  async advanceLow(n: number): Promise<void> {
    await this.docs.update([{ id: LOW_ID, update: { $max: { n } }, upsert: true }]);
  }

  /**
   * Deletes up to `max` of the oldest jobs that finished before `cutoff` — the job, its cancel,
   * every run's lease and progress, and its slot — and moves `queue|pruned` past them. Only
   * slots below `queue|low` are looked at (their jobs are finished), oldest first, up to the
   * first one that finished too recently. Returns how many slots went.
   */
  async prune(cutoff: Date, max: number): Promise<number> {
    const from = ((await this.docs.get(PRUNED_ID)) as SlotDoc | null)?.n ?? 0;
    const low = ((await this.docs.get(LOW_ID)) as SlotDoc | null)?.n ?? 0;
    let n = from;
    for (; n < low && n - from < max; n++) {
      const jobId = ((await this.docs.get(slotId(n))) as SlotDoc | null)?.job_id;
      if (jobId) {
        const status = await this.status(jobId);
        const finishedAt =
          status.progress && FINISHED.includes(status.progress.state) ? status.progress.finished_at : null;
        if (finishedAt === null || finishedAt >= cutoff) break;
        const runs = Array.from({ length: status.runs }, (_, e) => e);
        const job = await this.job(jobId);
        const listed = job?.account_slot !== undefined ? [accountSlotId(job.account_id, job.account_slot)] : [];
        await this.docs.delete([
          ...listed,
          jobId,
          cancelId(jobId),
          ...runs.flatMap((e) => [leaseId(jobId, e), progressId(jobId, e)]),
        ]);
      }
      await this.docs.delete([slotId(n)]);
    }
    if (n > from) await this.docs.update([{ id: PRUNED_ID, update: { $max: { n } }, upsert: true }]);
    return n - from;
  }

  /** The account's next free list slot, taken by insert (another instance's take moves on to the next). */
  private async takeAccountSlot(account: string, jobId: string): Promise<number> {
    let n = await this.accountTop(account);
    for (let tries = 0; tries < 1000; tries++, n++) {
      if ((await this.docs.insertNew([{ _id: accountSlotId(account, n), job_id: jobId }])).length > 0) continue;
      await this.docs.update([{ id: accountTopId(account), update: { $max: { n: n + 1 } }, upsert: true }]);
      return n;
    }
    throw new Error('no free bulk retry list slot after 1000 tries');
  }

  /** One past the account's newest list slot: from the hint, then up over slots a racing take filled before raising it. */
  private async accountTop(account: string): Promise<number> {
    let n = ((await this.docs.get(accountTopId(account))) as SlotDoc | null)?.n ?? 0;
    while (await this.docs.get(accountSlotId(account, n))) n += 1;
    return n;
  }

  private async freeSlot(): Promise<number> {
    const low = ((await this.docs.get(LOW_ID)) as SlotDoc | null)?.n ?? 0;
    let n = Math.max(this.nextSlot, low);
    while (await this.docs.get(slotId(n))) n += 1;
    return n;
  }
}
