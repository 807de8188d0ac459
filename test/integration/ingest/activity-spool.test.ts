import { Redis } from 'ioredis';
import { ACTIVITY_REQUEST_V1 } from '@relay/contracts';
import type { ActivityRequestV1 } from '@relay/contracts';
import { createActivitySpool } from '../../../services/ingest-gateway/src/adapters/activity-spool';
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
    type: ACTIVITY_REQUEST_V1, event_id: `evt_spool${n}`, account_id: 'acc_1', endpoint_id: 'ep_1', received_at: new Date().toISOString(),
    method: 'POST', source_ip: '198.51.100.7', outcome: 'DELIVERY_QUEUE_UNAVAILABLE', reason: null, target_count: 0, test: false,
  };
}

describe('activity spool: the drain loop', () => {
  it('re-publishes spooled rows oldest first, only while the broker is up, and stops when told', async () => {
    const spool = createActivitySpool(redis, namespace, 'gw_1', testLogger('ingest-gateway').logger);
    for (const n of [1, 2, 3]) expect(await spool.push(row(n))).toBe(true);
    const published: string[] = [];
    let brokerUp = false;
    const stop = spool.drainEvery(20, async (r) => void published.push(r.event_id), () => brokerUp);
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
