import { BrokerConnection, ConfirmPublisher, DeliveryPublisher } from '@relay/broker';
import { newId } from '@relay/contracts';
import { openActivityLog } from '@relay/activity-log';
import { connectStore } from '@relay/store';
import type { Store } from '@relay/store';
import { MAX_RUNS, createBulkRetryRunner } from '../../../services/management-api/src/adapters/bulk-retry-runner';
import { BulkRetryStore } from '../../../services/management-api/src/adapters/bulk-retry-store';
import type { JobDoc } from '../../../services/management-api/src/adapters/bulk-retry-store';
import { zeroCounts } from '../../../services/management-api/src/domain/bulk-retry-job';
import { MAX_RESENT_DELIVERIES_PER_EVENT } from '../../../services/management-api/src/domain/resend';
import { createResendAllowance } from '../../../services/management-api/src/adapters/resend-allowance';
import { Redis } from 'ioredis';
import { deleteBrokerNamespace, eventually, infra, testNamespace } from '../../support/infra';
import { testLogger } from '../../support/logger';

/**
 * Bulk retry jobs on the real MongoDB-wire store, from two connections as two management-api
 * processes would use it. FerretDB lets concurrent conditional updates all succeed, so a run is
 * claimed by inserting its lease: exactly one claimant wins, whatever the timing.
 */
const { mongodbUrl, namespace } = testNamespace('bulkjobs');
let a: Store;
let b: Store;
let jobsA: BulkRetryStore;
let jobsB: BulkRetryStore;

beforeAll(async () => {
  [a, b] = await Promise.all([connectStore(mongodbUrl), connectStore(mongodbUrl)]);
  jobsA = new BulkRetryStore(a);
  jobsB = new BulkRetryStore(b);
});
afterAll(async () => {
  await a.connection.dropDatabase();
  await Promise.all([a.close(), b.close()]);
});

const job = (): JobDoc => ({
  _id: newId('brj'),
  account_id: 'acc_1',
  filter: { endpoint_id: null, target_id: null, from_ms: 0, to_ms: 1 },
  rate_per_second: 10,
  created_at: new Date(),
  created_by: 'rk_test',
});

describe('bulk retry jobs in the store', () => {
  it('two instances racing for the same run of a job: exactly one gets it, every time', async () => {
    for (let round = 0; round < 10; round++) {
      const j = job();
      await jobsA.create(j);
      const won = await Promise.all([
        jobsA.claim(j._id, 0, 'a', Date.now() + 10_000),
        jobsB.claim(j._id, 0, 'b', Date.now() + 10_000),
      ]);
      expect(won.filter(Boolean)).toHaveLength(1);
    }
  });

  it('a later run fences the earlier one: its holder sees it is superseded and stops writing', async () => {
    const j = job();
    await jobsA.create(j);
    expect(await jobsA.claim(j._id, 0, 'a', Date.now() + 1)).toBe(true);
    await jobsA.saveProgress(
      j._id,
      0,
      {
        state: 'running',
        cursor: 'c0',
        counts: { ...zeroCounts(), rows_scanned: 50 },
        started_at: new Date(),
        updated_at: new Date(),
        finished_at: null,
        error: null,
      },
      true,
    );
    expect(await jobsA.superseded(j._id, 0)).toBe(false);
    // a's lease expired; b takes the next run from a's saved progress
    const status = await jobsB.status(j._id);
    expect(status).toMatchObject({ runs: 1, progress: { cursor: 'c0', counts: { rows_scanned: 50 } } });
    expect(await jobsB.claim(j._id, status.runs, 'b', Date.now() + 10_000)).toBe(true);
    expect(await jobsA.superseded(j._id, 0)).toBe(true);
    // until b writes its own progress, the job shows a's
    expect((await jobsA.status(j._id)).progress?.cursor).toBe('c0');
    await jobsB.saveProgress(
      j._id,
      1,
      {
        state: 'done',
        cursor: null,
        counts: { ...zeroCounts(), rows_scanned: 80 },
        started_at: new Date(),
        updated_at: new Date(),
        finished_at: new Date(),
        error: null,
      },
      true,
    );
    expect(await jobsA.status(j._id)).toMatchObject({
      runs: 2,
      progress: { state: 'done', counts: { rows_scanned: 80 } },
    });
  });

  it('a cancel request is an insert: asking twice is the same request', async () => {
    const j = job();
    await jobsA.create(j);
    expect(await jobsB.cancelRequested(j._id)).toBe(false);
    await Promise.all([jobsA.requestCancel(j._id, 'rk_a', new Date()), jobsB.requestCancel(j._id, 'rk_b', new Date())]);
    expect(await jobsB.cancelRequested(j._id)).toBe(true);
  });

  it('jobs created at once from two instances get slots of their own, and runners find every one from the low-water mark', async () => {
    const url = testNamespace('bulkslots').mongodbUrl;
    const fresh = await Promise.all([connectStore(url), connectStore(url)]);
    const [s1, s2] = fresh;
    try {
      const [x, y] = [new BulkRetryStore(s1!), new BulkRetryStore(s2!)];
      const made = Array.from({ length: 6 }, job);
      await Promise.all(made.map((j, i) => (i % 2 ? x : y).create(j)));
      const slots = await x.slots();
      expect(slots.map((s) => s.jobId).sort()).toEqual(made.map((j) => j._id).sort());
      expect(new Set(slots.map((s) => s.n)).size).toBe(6);
      await x.advanceLow(2);
      expect((await y.slots()).map((s) => s.n)).toEqual([2, 3, 4, 5]);
    } finally {
      await s1!.connection.dropDatabase();
      await Promise.all(fresh.map((s) => s.close()));
    }
  });

  it(`a job whose runs keep ending early is given up as failed after ${MAX_RUNS} runs, not retaken forever`, async () => {
    const j = job();
    await jobsA.create(j);
    for (let n = 0; n < MAX_RUNS; n++) await jobsA.claim(j._id, n, 'crashed', 0);
    await jobsA.saveProgress(
      j._id,
      MAX_RUNS - 1,
      {
        state: 'running',
        cursor: null,
        counts: zeroCounts(),
        started_at: new Date(),
        updated_at: new Date(),
        finished_at: null,
        error: 'store unreachable',
      },
      true,
    );
    const { logger } = testLogger('management-api');
    const broker = new BrokerConnection({
      url: infra.rabbitmqUrl,
      connectionName: 'bulk retry test',
      logger,
      topology: { namespace, deliveryLimit: 20 },
    });
    await broker.start();
    const redis = new Redis(infra.redisUrl, { maxRetriesPerRequest: 1 });
    const allowance = createResendAllowance(redis, namespace, MAX_RESENT_DELIVERIES_PER_EVENT, 60_000);
    const runner = createBulkRetryRunner({
      store: b,
      activityLog: openActivityLog(b.connection, 'ferretdb'),
      jobs: jobsB,
      deliveries: new DeliveryPublisher(new ConfirmPublisher(broker, 1000), namespace),
      allowance,
      logger,
      leaseMs: 1000,
      pollMs: 100,
      keepFinishedMs: 30 * 86_400_000,
    });
    runner.start();
    try {
      const status = await eventually(
        async () => {
          const s = await jobsA.status(j._id);
          return s.progress?.state === 'failed' && s;
        },
        10000,
        'the job to be given up',
      );
      expect(status.progress?.error).toMatch(/store unreachable/);
    } finally {
      await runner.stop();
      await broker.close();
      redis.disconnect();
      await deleteBrokerNamespace(namespace);
    }
  });
});

describe("an account's bulk retry jobs, newest first (BulkRetryStore.list)", () => {
  it('pages through its own jobs only, each with its status, from two instances creating at once', async () => {
    const own = testNamespace('bulklist');
    const [s1, s2] = await Promise.all([connectStore(own.mongodbUrl), connectStore(own.mongodbUrl)]);
    const [one, two] = [new BulkRetryStore(s1), new BulkRetryStore(s2)];
    try {
      const mine: JobDoc[] = [];
      for (let k = 0; k < 4; k++) {
        const pair = [job(), job()];
        await Promise.all([one.create(pair[0]!), two.create(pair[1]!)]);
        mine.push(...pair);
        await one.create({ ...job(), account_id: 'acc_other' });
      }
      await one.requestCancel(mine[7]!._id, 'rk_test', new Date());

      const seen: string[] = [];
      let before: number | null = null;
      for (let pages = 0; pages < 10; pages++) {
        const page = await two.list('acc_1', 3, before);
        seen.push(...page.jobs.map((l) => l.job._id));
        expect(page.jobs.length).toBeLessThanOrEqual(3);
        if (page.next === null) break;
        before = page.next;
      }
      // every job once; pairs created at once may list in either order, pairs newest first
      expect([...seen].sort()).toEqual(mine.map((j) => j._id).sort());
      const pairOf = (id: string) => Math.floor(mine.findIndex((j) => j._id === id) / 2);
      expect(seen.map(pairOf)).toEqual([3, 3, 2, 2, 1, 1, 0, 0]);
      const first = await two.list('acc_1', 8, null);
      expect(first.jobs.find((l) => l.job._id === mine[7]!._id)?.status).toMatchObject({
        runs: 0,
        progress: null,
        cancelRequested: true,
      });
      expect((await one.list('acc_other', 10, null)).jobs).toHaveLength(4);
      expect(await one.list('acc_none', 10, null)).toEqual({ jobs: [], next: null });
    } finally {
      await s1.connection.dropDatabase();
      await Promise.all([s1.close(), s2.close()]);
    }
  });
});

describe('finished bulk retry jobs are deleted after the retention period (BulkRetryStore.prune)', () => {
  it('deletes the old finished jobs with their runs and slots, oldest first, and keeps recent, unfinished and later ones', async () => {
    const own = testNamespace('bulkprune');
    const store = await connectStore(own.mongodbUrl);
    const jobs = new BulkRetryStore(store);
    try {
      const day = 86_400_000;
      const finish = async (j: JobDoc, runs: number, finishedAt: Date | null) => {
        for (let e = 0; e < runs; e++) await jobs.claim(j._id, e, 'x', 0);
        const state = finishedAt ? 'done' : 'running';
        await jobs.saveProgress(
          j._id,
          runs - 1,
          {
            state,
            cursor: null,
            counts: zeroCounts(),
            started_at: new Date(),
            updated_at: new Date(),
            finished_at: finishedAt,
            error: null,
          },
          true,
        );
      };
      const made: JobDoc[] = [];
      for (let k = 0; k < 5; k++) {
        const j = job();
        await jobs.create(j);
        made.push(j);
      }
      // slots 0-2 finished 40 days ago (slot 1 after two runs, and cancelled), slot 3 yesterday, slot 4 still running
      await finish(made[0]!, 1, new Date(Date.now() - 40 * day));
      await finish(made[1]!, 2, new Date(Date.now() - 40 * day));
      await jobs.requestCancel(made[1]!._id, 'rk_test', new Date());
      await finish(made[2]!, 1, new Date(Date.now() - 40 * day));
      await finish(made[3]!, 1, new Date(Date.now() - day));
      await finish(made[4]!, 1, null);
      await jobs.advanceLow(4);
      const cutoff = new Date(Date.now() - 30 * day);

      expect(await jobs.prune(cutoff, 2)).toBe(2); // at most `max` a call
      expect(await jobs.prune(cutoff, 100)).toBe(1); // stops at the job that finished yesterday
      expect(await jobs.prune(cutoff, 100)).toBe(0);
      const ids = (await store.connection.db!.collection('bulk_retries').find({}).toArray())
        .map((d) => String(d._id))
        .sort();
      for (const gone of made.slice(0, 3)) expect(ids.filter((id) => id.startsWith(gone._id))).toEqual([]);
      expect(ids).not.toEqual(expect.arrayContaining(['queue|0', 'queue|1', 'queue|2']));
      expect(ids).toEqual(
        expect.arrayContaining(['queue|3', 'queue|4', made[3]!._id, made[4]!._id, `${made[3]!._id}|progress|0`]),
      );
      expect(await jobs.job(made[0]!._id)).toBeNull();
      expect(await jobs.job(made[3]!._id)).not.toBeNull();
      // the queue goes on as before: the running job is still found, new jobs get new slots
      expect((await jobs.slots()).map((s) => s.jobId)).toEqual([made[4]!._id]);
      const next = job();
      await jobs.create(next);
      expect((await jobs.slots()).map((s) => s.n)).toEqual([4, 5]);
      // the account's list lost the deleted jobs' places with them, and ends where they were
      const listed = await store.connection
        .db!.collection('bulk_retries')
        .find({ _id: { $in: [0, 1, 2].map((n) => `account|acc_1|${n}`) } as never })
        .toArray();
      expect(listed).toEqual([]);
      const page = await jobs.list('acc_1', 10, null);
      expect(page.jobs.map((l) => l.job._id)).toEqual([next._id, made[4]!._id, made[3]!._id]);
      expect(page.next).toBeNull();
    } finally {
      await store.connection.dropDatabase();
      await store.close();
    }
  });
});
