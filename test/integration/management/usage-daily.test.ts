import { Redis } from 'ioredis';
import { must } from '@relay/client';
import {
  createRedisLimiter,
  limiterRedisOptions,
} from '../../../services/ingest-gateway/src/adapters/limiter/redis-limiter';
import { infra } from '../../support/infra';
import { testLogger } from '../../support/logger';
import { PLAN, startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/*
 * Usage over time. The gateway's own limiter (real Redis, the same admit
 * script it runs per request) counts accepted events per endpoint and day beside the monthly
 * quota; GET /v1/billing/usage/daily reads those counters — no activity log involved.
 */
const NOW = new Date('2030-02-10T12:00:00Z');
let fx: ManagementFixture;
let limiterRedis: Redis;
beforeAll(async () => {
  fx = await startManagement('mgmt-usage-daily', { now: () => NOW });
  limiterRedis = new Redis(infra.redisUrl, limiterRedisOptions(2000));
});
afterAll(async () => {
  limiterRedis?.disconnect();
  await fx?.close();
});

describe('GET /v1/billing/usage/daily: accepted events per day and per endpoint, from the gateway counters', () => {
  it('splits the month by UTC day and endpoint, against the plan; refunds and per-process counts are accounted', async () => {
    const a = (await must(fx.client.POST('/v1/endpoints', { body: { name: 'orders' } }))).id;
    const b = (await must(fx.client.POST('/v1/endpoints', { body: { name: 'billing' } }))).id;
    const limiter = createRedisLimiter({
      redis: limiterRedis,
      decisionTimeoutMs: 2000,
      namespace: fx.namespace,
      logger: testLogger('gateway').logger,
      fallbackCounter: { inc: () => undefined },
    });
    const admit = (endpointId: string, at: string) =>
      limiter.admit({
        endpointId,
        accountId: fx.accountId,
        ratePerMinute: 1000,
        monthlyQuota: 1000,
        now: new Date(at),
      });

    for (let i = 0; i < 3; i++)
      expect(await admit(a, '2030-02-01T00:00:05Z')).toEqual({ admitted: true, counter: 'shared' });
    await admit(a, '2030-02-10T08:00:00Z');
    await admit(b, '2030-02-10T09:00:00Z');
    const refunded = {
      endpointId: b,
      accountId: fx.accountId,
      ratePerMinute: 1000,
      monthlyQuota: 1000,
      now: new Date('2030-02-10T09:30:00Z'),
    };
    const decision = await limiter.admit(refunded);
    if (!decision.admitted) throw new Error('not admitted');
    await limiter.refund(refunded, decision); // a publish that failed: not accepted after all
    // what a gateway counted alone during a Redis outage is added back to the month without its day
    await fx.redis.incrby(`${fx.namespace}:quota:${fx.accountId}:2030-02`, 2);

    // raw: the Cache-Control header
    const res = await fx.api('get', '/v1/billing/usage/daily');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const days = Array.from({ length: 10 }, (_, i) => ({
      date: `2030-02-${String(i + 1).padStart(2, '0')}`,
      accepted_events: i === 0 ? 3 : i === 9 ? 2 : 0,
    }));
    expect(res.body).toEqual({
      account_id: fx.accountId,
      period: { month: '2030-02', start: '2030-02-01T00:00:00.000Z', end: '2030-03-01T00:00:00.000Z' },
      limit: PLAN.monthly_accepted_events,
      accepted_events: 7,
      days,
      endpoints: [
        { endpoint_id: a, name: 'orders', accepted_events: 4, days: [3, 0, 0, 0, 0, 0, 0, 0, 0, 1] },
        { endpoint_id: b, name: 'billing', accepted_events: 1, days: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1] },
      ],
      unattributed: 2,
    });
    // the monthly figure the plan is checked against is the same one GET /billing/usage shows
    expect((await must(fx.client.GET('/v1/billing/usage'))).accepted_events).toBe(7);

    // bounded: one hash per account and month, expiring with the quota counter
    const key = `${fx.namespace}:usage-daily:{${fx.namespace}:quota:${fx.accountId}:2030-02}`;
    expect(await fx.redis.hlen(key)).toBe(3);
    expect(await fx.redis.ttl(key)).toBeGreaterThan(39 * 86400);
  });

  it('is for admin and owner keys, like the usage it splits; another account sees only its own', async () => {
    const editor = await fx.keyWithRole('editor');
    expect((await fx.clientAs(editor.secret).GET('/v1/billing/usage/daily')).response.status).toBe(403);
    const other = await fx.newAccount();
    const theirs = await must(fx.clientAs(other.apiKey).GET('/v1/billing/usage/daily'));
    expect(theirs).toMatchObject({ accepted_events: 0, endpoints: [], unattributed: 0 });
    expect(theirs.days).toHaveLength(10);
  });
});
