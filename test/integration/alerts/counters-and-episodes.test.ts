import { Redis } from 'ioredis';
import {
  ALERTS_PER_RULE_PER_HOUR,
  CounterBuffer,
  COUNT_TTL_S,
  countKey,
  endpointSubject,
  minuteOf,
  readWindow,
  startsEpisode,
  withinRuleRate,
} from '@relay/alerts';
import { infra, testNamespace } from '../../support/infra';

const { namespace } = testNamespace('alertcount');
let redis: Redis;

beforeAll(() => {
  redis = new Redis(infra.redisUrl);
});

afterAll(async () => {
  const keys = await redis.keys(`${namespace}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

describe('alert counters and episodes (real Redis, docs/alerts.md)', () => {
  it('two instances tally in memory and their flushes sum per minute in Redis, with a TTL past the longest window', async () => {
    const now = Date.UTC(2026, 10, 26, 17, 0, 30);
    const a = new CounterBuffer({ redis, namespace, now: () => now, flushMs: 60_000 });
    const b = new CounterBuffer({ redis, namespace, now: () => now, flushMs: 60_000 });
    const ep = endpointSubject('ep_1');
    for (let i = 0; i < 7; i++) a.add(ep, 'AUTH_FAILED');
    for (let i = 0; i < 3; i++) b.add(ep, 'AUTH_FAILED');
    b.add(ep, 'ACCEPTED');
    // nothing is in Redis before a flush: no round trip per event
    expect(await redis.exists(countKey(namespace, ep, minuteOf(now)))).toBe(0);
    await Promise.all([a.flush(), b.flush()]);
    expect(await readWindow(redis, namespace, ep, 5, now)).toEqual({ AUTH_FAILED: 10, ACCEPTED: 1 });
    const ttl = await redis.ttl(countKey(namespace, ep, minuteOf(now)));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(COUNT_TTL_S);
  });

  it('a window reads only its own minutes', async () => {
    const t0 = Date.UTC(2026, 10, 26, 18, 0, 0);
    const ep = endpointSubject('ep_2');
    const at = (ms: number) => new CounterBuffer({ redis, namespace, now: () => ms, flushMs: 60_000 });
    const old = at(t0);
    old.add(ep, 'ACCEPTED');
    await old.flush();
    const recent = at(t0 + 10 * 60_000);
    recent.add(ep, 'ACCEPTED');
    await recent.flush();
    expect(await readWindow(redis, namespace, ep, 5, t0 + 10 * 60_000)).toEqual({ ACCEPTED: 1 });
    expect(await readWindow(redis, namespace, ep, 15, t0 + 10 * 60_000)).toEqual({ ACCEPTED: 2 });
  });

  it('writes early once it holds maxEntries distinct counts: memory stays bounded', async () => {
    const buffer = new CounterBuffer({ redis, namespace, flushMs: 60_000, maxEntries: 10 });
    for (let i = 0; i < 10; i++) buffer.add(endpointSubject(`ep_many${i}`), 'ACCEPTED');
    await buffer.flush();
    expect(
      await redis.hget(countKey(namespace, endpointSubject('ep_many9'), minuteOf(Date.now())), 'ACCEPTED'),
    ).not.toBeNull();
  });

  it('an episode starts once across instances; sightings extend it', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => startsEpisode(redis, namespace, 'ar_1', 'failure_rate:tg_1', 60_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await startsEpisode(redis, namespace, 'ar_1', 'failure_rate:tg_2', 60_000)).toBe(true);
    expect(await startsEpisode(redis, namespace, 'ar_2', 'failure_rate:tg_1', 60_000)).toBe(true);
  });

  it('an episode ends after its cool-down without a sighting; the next sighting starts another', async () => {
    expect(await startsEpisode(redis, namespace, 'ar_3', 'k', 50)).toBe(true);
    // wait for Redis to expire the key (bounded: at most 50 polls)
    for (let i = 0; i < 50 && (await redis.exists(`${namespace}:alert-episode:ar_3:k`)); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await startsEpisode(redis, namespace, 'ar_3', 'k', 50)).toBe(true);
  });

  it('a rule sends at most ALERTS_PER_RULE_PER_HOUR an hour', async () => {
    const now = Date.now();
    const verdicts: boolean[] = [];
    for (let i = 0; i < ALERTS_PER_RULE_PER_HOUR + 2; i++)
      verdicts.push(await withinRuleRate(redis, namespace, 'ar_rate', now));
    expect(verdicts.filter(Boolean)).toHaveLength(ALERTS_PER_RULE_PER_HOUR);
    expect(verdicts.slice(-2)).toEqual([false, false]);
  });
});
