import { Redis } from 'ioredis';
import { driftKey } from '@relay/contracts';
import type { AccountEventInput } from '@relay/contracts';
import { createDriftLearner, MAX_DRIFT_FIELDS } from '../../../services/ingest-gateway/src/adapters/payload-drift';
import type { DriftSample } from '../../../services/ingest-gateway/src/domain/ports';
import { infra, testNamespace } from '../../support/infra';
import { testLogger } from '../../support/logger';

/**
 * The gateway's drift learner (docs/contracts.md "Drift") on the real Redis: the first shape of
 * an event type is learned silently, each new shape publishes one account event naming what
 * changed, a shape seen before publishes nothing; the hash per endpoint is bounded; at most
 * `samplesPerSecond` events a second are looked at.
 */
let redis: Redis;
const { namespace } = testNamespace('drift');

beforeAll(() => {
  redis = new Redis(infra.redisUrl);
});

afterAll(async () => {
  const keys = await redis.keys(`${namespace}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

function learner(opts: { samplesPerSecond?: number; now?: () => number } = {}) {
  const told: AccountEventInput[] = [];
  const drift = createDriftLearner({
    redis,
    namespace,
    logger: testLogger().logger,
    publish: async (event) => void told.push(event),
    ...opts,
  });
  let n = 0;
  const learn = async (endpointId: string, data: unknown, eventType: string | null = 'push') => {
    n += 1;
    const sample: DriftSample = {
      accountId: 'acc_1',
      endpointId,
      eventId: `evt_${n}`,
      eventType,
      data,
      at: new Date(),
    };
    drift.learn(sample);
    await drift.settled();
  };
  return { told, learn };
}

it('the baseline fires nothing; a new shape fires once, naming fields added, removed and retyped; a known shape never', async () => {
  const { told, learn } = learner();
  await learn('ep_a', { ref: 'main', commits: [{ id: 'a' }] });
  expect(told).toEqual([]);
  await learn('ep_a', { ref: 1, commits: [{}], forced: false });
  expect(told).toEqual([
    {
      kind: 'payload_drift',
      account_id: 'acc_1',
      endpoint_id: 'ep_a',
      at: expect.any(String),
      detail: {
        event_type: 'push',
        event_id: 'evt_2',
        added: '$.forced',
        removed: '$.commits[].id',
        retyped: '$.ref: string → integer',
        added_count: 1,
        removed_count: 1,
        retyped_count: 1,
      },
    },
  ]);
  await learn('ep_a', { ref: 2, commits: [{}], forced: true });
  await learn('ep_a', { ref: 'x', commits: [{ id: 'b' }] });
  expect(told).toHaveLength(1);
  // another event type has a baseline of its own; another endpoint too
  await learn('ep_a', { ref: 1 }, 'issues');
  await learn('ep_b', { ref: 1, commits: [{}], forced: false });
  expect(told).toHaveLength(1);
});

it(`keeps at most ${MAX_DRIFT_FIELDS} fields per endpoint, expiring`, async () => {
  const { learn } = learner({ samplesPerSecond: 1000 });
  for (let i = 0; i < MAX_DRIFT_FIELDS + 5; i++) await learn('ep_full', { [`f${i}`]: 1 });
  expect(await redis.hlen(driftKey(namespace, 'ep_full'))).toBe(MAX_DRIFT_FIELDS);
  expect(await redis.pttl(driftKey(namespace, 'ep_full'))).toBeGreaterThan(0);
});

it('looks at most samplesPerSecond events a second', async () => {
  let clock = 1_000_000;
  const { told, learn } = learner({ samplesPerSecond: 1, now: () => clock });
  await learn('ep_s', { a: 1 });
  await learn('ep_s', { a: 'x' });
  expect(told).toEqual([]);
  clock += 1000;
  await learn('ep_s', { a: 'x' });
  expect(told.map((e) => e.detail.retyped)).toEqual(['$.a: integer → string']);
});
