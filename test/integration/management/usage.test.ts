import { Redis } from 'ioredis';
import { must } from '@relay/client';
import request from 'supertest';
import { createUsageCounter } from '../../../services/management-api/src/adapters/usage-counter';
import { PLAN, startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/** A fixed clock: the counter of February 2030 (UTC) is the current one. */
const NOW = new Date('2030-02-10T12:00:00Z');
let fx: ManagementFixture;
beforeAll(async () => {
  fx = await startManagement('mgmt-usage', { now: () => NOW });
});
afterAll(async () => {
  await fx?.close();
});

const counter = (accountId: string, month = '2030-02'): string => `${fx.namespace}:quota:${accountId}:${month}`;

describe('spec "Other interfaces": GET /billing/usage', () => {
  it('shows the current UTC month, the plan and the accepted-event count the gateway keeps in Redis', async () => {
    await fx.redis.set(counter(fx.accountId), '250');
    await fx.redis.set(counter(fx.accountId, '2030-01'), '999'); // last month does not count
    // raw: the spec's unversioned /billing/usage path (not in the document's client) and its Cache-Control header
    const res = await fx.api('get', '/billing/usage');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      account_id: fx.accountId,
      plan: {
        name: PLAN.name,
        monthly_accepted_events: PLAN.monthly_accepted_events,
        payload_limit_bytes: PLAN.payload_limit_bytes,
      },
      period: { month: '2030-02', start: '2030-02-01T00:00:00.000Z', end: '2030-03-01T00:00:00.000Z' },
      accepted_events: 250,
      limit: 1000,
      remaining: 750,
    });
    expect(await must(fx.client.GET('/v1/billing/usage'))).toEqual(res.body);
  });

  it('counts 0 before the first accepted event, and never shows a negative remainder', async () => {
    const fresh = await fx.newAccount({ name: 'tiny', monthly_accepted_events: 5, payload_limit_bytes: 1024 });
    const get = () => request(fx.app).get('/billing/usage').set('Authorization', `Bearer ${fresh.apiKey}`);
    expect((await get()).body).toMatchObject({
      account_id: fresh.accountId,
      accepted_events: 0,
      limit: 5,
      remaining: 5,
    });
    await fx.redis.set(counter(fresh.accountId), '7');
    expect((await get()).body).toMatchObject({ accepted_events: 7, limit: 5, remaining: 0 });
  });

  it('answers 503 usage_unavailable with Retry-After when Redis cannot be read', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    dead.on('error', () => undefined);
    const broken = await startManagement('mgmt-usage-down', { acceptedEvents: createUsageCounter(dead, 'relay') });
    try {
      // raw: the 503 and its Retry-After header
      const res = await broken.api('get', '/billing/usage');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({ code: 'usage_unavailable', message: expect.any(String) });
    } finally {
      dead.disconnect();
      await broken.close();
    }
  });
});
