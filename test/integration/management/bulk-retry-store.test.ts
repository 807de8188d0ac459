import { BrokerConnection, ConfirmPublisher } from '@relay/broker';
import { newId } from '@relay/contracts';
import { connectStore } from '@relay/store';
import type { Store } from '@relay/store';
import { MAX_RUNS, createBulkRetryRunner } from '../../../services/management-api/src/adapters/bulk-retry-runner';
import { BulkRetryStore } from '../../../services/management-api/src/adapters/bulk-retry-store';
import { createDeliveryPublisher } from '../../../services/management-api/src/adapters/delivery-publisher';
import type { JobDoc } from '../../../services/management-api/src/adapters/bulk-retry-store';
import { zeroCounts } from '../../../services/management-api/src/domain/bulk-retry-job';
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

const job = (): JobDoc => ({ _id: newId('brj'), account_id: 'acc_1', filter: { endpoint_id: null, target_id: null, from_ms: 0, to_ms: 1 }, rate_per_second: 10, created_at: new Date(), created_by: 'rk_test' });

describe('bulk retry jobs in the store', () => {
  it('two instances racing for the same run of a job: exactly one gets it, every time', async () => {
    for (let round = 0; round < 10; round++) {
      const j = job();
      await jobsA.create(j);
      const won = await Promise.all([jobsA.claim(j._id, 0, 'a', Date.now() + 10_000), jobsB.claim(j._id, 0, 'b', Date.now() + 10_000)]);
      expect(won.filter(Boolean)).toHaveLength(1);
    }
  });

  it('a later run fences the earlier one: its holder sees it is superseded and stops writing', async () => {
    const j = job();
    await jobsA.create(j);
    expect(await jobsA.claim(j._id, 0, 'a', Date.now() + 1)).toBe(true);
    await jobsA.saveProgress(j._id, 0, { state: 'running', cursor: 'c0', counts: { ...zeroCounts(), rows_scanned: 50 }, started_at: new Date(), updated_at: new Date(), finished_at: null, error: null }, true);
    expect(await jobsA.superseded(j._id, 0)).toBe(false);
    // a's lease expired; b takes the next run from a's saved progress
    const status = await jobsB.status(j._id);
    expect(status).toMatchObject({ runs: 1, progress: { cursor: 'c0', counts: { rows_scanned: 50 } } });
    expect(await jobsB.claim(j._id, status.runs, 'b', Date.now() + 10_000)).toBe(true);
    expect(await jobsA.superseded(j._id, 0)).toBe(true);
    // until b writes its own progress, the job shows a's
    expect((await jobsA.status(j._id)).progress?.cursor).toBe('c0');
    await jobsB.saveProgress(j._id, 1, { state: 'done', cursor: null, counts: { ...zeroCounts(), rows_scanned: 80 }, started_at: new Date(), updated_at: new Date(), finished_at: new Date(), error: null }, true);
    expect(await jobsA.status(j._id)).toMatchObject({ runs: 2, progress: { state: 'done', counts: { rows_scanned: 80 } } });
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
    await jobsA.saveProgress(j._id, MAX_RUNS - 1, { state: 'running', cursor: null, counts: zeroCounts(), started_at: new Date(), updated_at: new Date(), finished_at: null, error: 'store unreachable' }, true);
    const { logger } = testLogger('management-api');
    const broker = new BrokerConnection({ url: infra.rabbitmqUrl, connectionName: 'bulk retry test', logger, topology: { namespace, deliveryLimit: 20 } });
    await broker.start();
    const runner = createBulkRetryRunner({ store: b, jobs: jobsB, deliveries: createDeliveryPublisher(new ConfirmPublisher(broker, 1000), namespace), logger, leaseMs: 1000, pollMs: 100 });
    runner.start();
    try {
      const status = await eventually(async () => {
        const s = await jobsA.status(j._id);
        return s.progress?.state === 'failed' && s;
      }, 10000, 'the job to be given up');
      expect(status.progress?.error).toMatch(/store unreachable/);
    } finally {
      await runner.stop();
      await broker.close();
      await deleteBrokerNamespace(namespace);
    }
  });
});
