import Redis from 'ioredis';
import {
  createRedisLimiter,
  LATE_ANSWER_MS,
  limiterRedisOptions,
} from '../../../services/ingest-gateway/src/adapters/limiter/redis-limiter';
import { eventually, infra } from '../../support/infra';
import { testLogger } from '../../support/logger';
import { freePort } from '../../support/services';
import { TcpProxy } from '../../support/tcp-proxy';
import { IngestHarness } from './harness';
import { send } from './http';

/**
 * Redis unreachable on the hot path (docs/ingest.md "Limits"): the gateway keeps accepting under
 * a per-process limiter, logs the switch and counts every request decided that way; when
 * Redis is back, the quota units counted meanwhile are added to the shared counter.
 */
let h: IngestHarness;
const clock = (): Date => new Date('2025-08-01T09:00:30Z');

beforeAll(async () => {
  h = await IngestHarness.start('limiter-fallback');
});

afterAll(async () => {
  await h?.stop();
});

/**
 * A gateway whose limiter reaches Redis through a TCP proxy, an account with `quota` and an
 * endpoint of it, once one request has been counted in Redis (`key`, the month's counter).
 */
async function behindProxy(quota: number, opts: { limiterTimeoutMs?: number } = {}) {
  const redis = new URL(infra.redisUrl);
  const proxy = new TcpProxy(redis.hostname, Number(redis.port || 6379));
  await proxy.start();
  const gw = await h.gateway({ clock, limiterRedisUrl: `redis://127.0.0.1:${proxy.port}`, ...opts });
  const account = await h.account({ monthly_accepted_events: quota });
  const id = await h.endpoint(account);
  const key = `${h.namespace}:quota:${account}:2025-08`;
  await eventually(
    async () => (await send(gw, id)).status === 202 && (await h.redis.get(key)) === '1',
    5000,
    'a shared count',
  );
  return { proxy, gw, id, key };
}

describe('rate limit and quota while Redis is unreachable', () => {
  it('a gateway whose Redis port is closed keeps accepting, limits per process, logs it once and counts every request', async () => {
    const gw = await h.gateway({ clock, limiterRedisUrl: `redis://127.0.0.1:${await freePort()}` });
    const id = await h.endpoint(await h.account(), { rate_limit_per_minute: 3 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await send(gw, id)).status);
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
    expect((await gw.metrics.limiterFallback.get()).values[0]?.value).toBe(5);
    expect(gw.logs().filter((l) => /fall back to per-process/.test(String(l.message)))).toHaveLength(1);
  });

  it('a cut Redis connection: the quota continues from the last shared count, and the units counted meanwhile reach Redis when it returns', async () => {
    const { proxy, gw, id, key } = await behindProxy(5);
    try {
      expect((await send(gw, id)).status).toBe(202);
      expect(await h.redis.get(key)).toBe('2');

      await proxy.cut();
      const during = [];
      for (let i = 0; i < 4; i++) during.push(await send(gw, id));
      expect(during.map((r) => r.status)).toEqual([202, 202, 202, 429]);
      expect(during[3]!.json.code).toBe('quota_exceeded');
      expect((await gw.metrics.limiterFallback.get()).values[0]?.value).toBe(4);
      expect(await h.redis.get(key)).toBe('2');

      await proxy.restore();
      await eventually(
        async () => {
          await send(gw, id);
          return (await h.redis.get(key)) === '5';
        },
        10000,
        'the owed units to reach Redis',
      );
      expect(gw.logs().some((l) => /back on Redis/.test(String(l.message)))).toBe(true);
    } finally {
      await proxy.stop();
    }
  });

  it('Redis answering after the deadline: the requests are decided per process, and each is counted once, not also in Redis', async () => {
    const { proxy, gw, id, key } = await behindProxy(100, { limiterTimeoutMs: 100 });
    try {
      // every byte held: each script reaches Redis, and runs there, only after its request was decided
      proxy.hold();
      const during = await Promise.all([1, 2, 3].map(() => send(gw, id)));
      expect(during.map((r) => r.status)).toEqual([202, 202, 202]);
      expect((await gw.metrics.limiterFallback.get()).values[0]?.value).toBe(3);
      await proxy.restore();

      // the late answers say the scripts counted: 1 + 3, and the next shared decision makes 5
      await eventually(async () => (await h.redis.get(key)) === '4', 5000, 'the held scripts counted in Redis');
      await new Promise((r) => setTimeout(r, 1100)); // the limiter tries Redis again a second after a failure
      expect((await send(gw, id)).status).toBe(202);
      expect(await h.redis.get(key)).toBe('5');
      expect((await gw.metrics.limiterFallback.get()).values[0]?.value).toBe(3);
    } finally {
      await proxy.stop();
    }
  });

  it('a busy event loop: an answer already waiting when the deadline passes is read, and Redis decides', async () => {
    const redis = new Redis(infra.redisUrl, limiterRedisOptions(LATE_ANSWER_MS));
    try {
      await eventually(async () => redis.status === 'ready', 5000, 'redis');
      const fallbacks = { n: 0, inc: () => void fallbacks.n++ };
      const limiter = createRedisLimiter({
        redis,
        decisionTimeoutMs: 50,
        namespace: h.namespace,
        logger: testLogger().logger,
        fallbackCounter: fallbacks,
      });
      const req = {
        endpointId: 'ep_busy',
        accountId: 'acct_busy',
        ratePerMinute: 1000,
        monthlyQuota: 1000,
        now: clock(),
      };
      await limiter.admit(req); // the script is loaded in Redis: one round trip below
      const decision = limiter.admit(req);
      await new Promise((r) => setImmediate(r)); // the script is written
      const until = Date.now() + 500; // the loop is blocked past the deadline while Redis answers
      while (Date.now() < until);
      expect(await decision).toEqual({ admitted: true, counter: 'shared' });
      expect(fallbacks.n).toBe(0);
    } finally {
      redis.disconnect();
    }
  });
});
