import { Redis } from 'ioredis';
import { ACTIVITY_REQUEST_V1, encodeMessage } from '@relay/contracts';
import type { ActivityRequestV1 } from '@relay/contracts';
import { createActivitySpool, QUARANTINE_MAX } from '../../../services/ingest-gateway/src/adapters/activity-spool';
import { DeliveryQueueUnavailableError } from '@relay/broker';
import { eventually, infra, testNamespace } from '../../support/infra';
import { testLogger } from '../../support/logger';

/* The gateway's spool on the real Redis: rows the broker refused come back once it is up. */

const { namespace } = testNamespace('spool');
const redis = new Redis(infra.redisUrl);
afterAll(async () => {
  await redis.del(`${namespace}:activity-spool`, `${namespace}:activity-spool:lock`);
  redis.disconnect();
});

function row(n: number): ActivityRequestV1 {
  return {
    type: ACTIVITY_REQUEST_V1,
    event_id: `evt_spool${n}`,
    account_id: 'acc_1',
    endpoint_id: 'ep_1',
    received_at: new Date().toISOString(),
    method: 'POST',
    source_ip: '198.51.100.7',
    outcome: 'DELIVERY_QUEUE_UNAVAILABLE',
    reason: null,
    target_count: 0,
    test: false,
  };
}

describe('activity spool: the drain loop', () => {
  it('re-publishes spooled rows oldest first, only while the broker is up, and stops when told', async () => {
    const spool = createActivitySpool(redis, namespace, 'gw_1', testLogger('ingest-gateway').logger);
    for (const n of [1, 2, 3]) expect(await spool.push(row(n))).toBe(true);
    const published: string[] = [];
    let brokerUp = false;
    const stop = spool.drainEvery(
      20,
      async (r) => void published.push(r.event_id),
      () => brokerUp,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(published).toEqual([]);

    brokerUp = true;
    await eventually(async () => published.length === 3, 5000, 'the spool to drain');
    expect(published).toEqual(['evt_spool1', 'evt_spool2', 'evt_spool3']);
    expect(await redis.llen(`${namespace}:activity-spool`)).toBe(0);

    stop();
    await spool.push(row(4));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(published).toHaveLength(3);
  });
});

describe('activity spool: a pass whose lock expired never trims rows it did not publish', () => {
  it('when another drainer published and trimmed the batch meanwhile, a row spooled since stays spooled', async () => {
    const key = `${namespace}:activity-spool`;
    await redis.del(key, `${key}:lock`);
    const spool = createActivitySpool(redis, namespace, 'gw_slow', testLogger('ingest-gateway').logger);
    for (const n of [11, 12, 13]) await spool.push(row(n));
    const published: string[] = [];
    let takenOver = false;
    const stop = spool.drainEvery(
      20,
      async (r) => {
        published.push(r.event_id);
        if (!takenOver) {
          takenOver = true;
          // as if this pass outlived its lock: another gateway took it, published the three rows
          // and trimmed them, and a new row was spooled — all before this pass trims
          await redis.set(`${key}:lock`, 'gw_other', 'PX', 15000);
          await redis.ltrim(key, 0, -4);
          await spool.push(row(14));
        }
      },
      () => true,
    );
    await eventually(async () => published.length >= 3, 5000, 'the slow pass to publish its batch');
    await new Promise((resolve) => setTimeout(resolve, 200));
    stop();
    // the row spooled after the batch was read is still there, unpublished by this pass
    const left = (await redis.lrange(key, 0, -1)).map((r) => (JSON.parse(r) as ActivityRequestV1).event_id);
    expect(left).toEqual(['evt_spool14']);
    expect(published).toEqual(['evt_spool11', 'evt_spool12', 'evt_spool13']);
    await redis.del(key, `${key}:lock`);
  });
});

describe('activity spool: one bad row never blocks the rows behind it', () => {
  const key = `${namespace}:activity-spool`;
  const quarantineKey = `${key}:quarantine`;
  // the real producer-side contract check, as events.publishActivity runs it
  const contractPublish = (published: string[]) => async (r: ActivityRequestV1) => {
    encodeMessage(r);
    published.push(r.event_id);
  };

  beforeEach(async () => {
    await redis.del(key, quarantineKey, `${key}:lock`);
  });
  afterAll(async () => {
    await redis.del(quarantineKey);
  });

  it('a row that is not JSON and a row the contract refuses are quarantined; every other row is published, in order', async () => {
    const spool = createActivitySpool(redis, namespace, 'gw_1', testLogger('ingest-gateway').logger);
    await spool.push(row(1));
    await redis.lpush(key, '{not json');
    await spool.push({ ...row(2), source_ip: 'x'.repeat(65) });
    for (const n of [3, 4]) await spool.push(row(n));
    const published: string[] = [];
    const stop = spool.drainEvery(20, contractPublish(published), () => true);
    try {
      await eventually(async () => (await redis.llen(key)) === 0, 5000, 'the spool to drain past the bad rows');
    } finally {
      stop();
    }
    expect(published).toEqual(['evt_spool1', 'evt_spool3', 'evt_spool4']);
    const quarantined = await redis.lrange(quarantineKey, 0, -1);
    expect(quarantined).toHaveLength(2);
    expect(quarantined).toContain('{not json');
    expect(quarantined.some((q) => q.includes('evt_spool2'))).toBe(true);
  });

  it('a broker failure is not a bad row: the batch stays spooled and nothing is quarantined', async () => {
    const spool = createActivitySpool(redis, namespace, 'gw_1', testLogger('ingest-gateway').logger);
    for (const n of [1, 2]) await spool.push(row(n));
    let attempts = 0;
    const stop = spool.drainEvery(
      20,
      async () => {
        attempts += 1;
        throw new DeliveryQueueUnavailableError(new Error('broker gone'));
      },
      () => true,
    );
    try {
      await eventually(async () => attempts >= 4, 5000, 'a few drain passes');
    } finally {
      stop();
    }
    expect(await redis.llen(key)).toBe(2);
    expect(await redis.llen(quarantineKey)).toBe(0);
  });

  it(`the quarantine keeps the newest ${QUARANTINE_MAX} rows at most`, async () => {
    const spool = createActivitySpool(redis, namespace, 'gw_1', testLogger('ingest-gateway').logger);
    await redis.lpush(key, ...Array.from({ length: QUARANTINE_MAX + 50 }, (_, i) => `bad ${i}`));
    const stop = spool.drainEvery(20, contractPublish([]), () => true);
    try {
      await eventually(async () => (await redis.llen(key)) === 0, 10000, 'the spool to drain');
    } finally {
      stop();
    }
    expect(await redis.llen(quarantineKey)).toBe(QUARANTINE_MAX);
  });
});
