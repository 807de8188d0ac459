import { createHash } from 'node:crypto';
import { idempotencyKey } from '@relay/contracts';
import Redis from 'ioredis';
import { createIdempotencyStore } from '../../../services/ingest-gateway/src/adapters/idempotency-store';
import {
  LATE_ANSWER_MS,
  limiterRedisOptions,
} from '../../../services/ingest-gateway/src/adapters/limiter/redis-limiter';
import { eventually, infra } from '../../support/infra';
import { testLogger } from '../../support/logger';
import { IngestHarness } from './harness';
import type { GatewayInstance } from './harness';
import { send } from './http';

/**
 * Idempotency-Key on the real gateway app, Redis and RabbitMQ (docs/ingest.md
 * "Idempotency-Key"): the event key a sender supplies so that resending a request it is unsure
 * about never makes a second event. Two gateway instances share the keys through Redis.
 */
let h: IngestHarness;
let a: GatewayInstance;
let b: GatewayInstance;

beforeAll(async () => {
  h = await IngestHarness.start('idempotency');
  a = await h.gateway();
  b = await h.gateway();
});

afterAll(async () => {
  await h?.stop();
});

const withKey = (key: string) => ({ headers: { 'idempotency-key': key }, body: '{"order":1}' });
const redisKeyOf = (endpointId: string, key: string) =>
  idempotencyKey(h.namespace, endpointId, createHash('sha256').update(key).digest('base64url'));

describe('Idempotency-Key', () => {
  it('concurrent duplicates over two gateways make one event: one delivery, one row; the others get its id or 409', async () => {
    const id = await h.endpoint(await h.account(), { rate_limit_per_minute: 1000 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => send(i % 2 ? a : b, id, withKey('pay-77'))));
    const accepted = answers.filter((r) => r.status === 202);
    const first = new Set(accepted.map((r) => r.headers.get('x-relay-event-id')));
    expect(first.size).toBe(1);
    expect(
      answers.filter((r) => r.status !== 202).map((r) => [r.status, r.json.code, r.headers.get('retry-after')]),
    ).toEqual(answers.filter((r) => r.status !== 202).map(() => [409, 'idempotency_key_in_use', '1']));
    // a sender retrying after its 409 gets the event's id
    const retried = await send(a, id, withKey('pay-77'));
    expect([
      retried.status,
      retried.headers.get('x-relay-event-id'),
      retried.headers.get('idempotent-replayed'),
    ]).toEqual([202, [...first][0], 'true']);
    await h.settle(a);
    await h.settle(b);
    expect(h.deliveriesOf(id)).toHaveLength(1);
    expect(h.rowsOf(id).map((r) => r.outcome)).toEqual(['ACCEPTED']);
  });

  it('a key is kept in Redis for the window (IDEMPOTENCY_WINDOW_S) only: bounded by TTL, and only for accepted requests', async () => {
    const id = await h.endpoint(await h.account());
    expect((await send(a, id, withKey('kept'))).status).toBe(202);
    const ttl = await h.redis.pttl(redisKeyOf(id, 'kept'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(86_400_000);
    // refused by the payload rules: nothing is kept, the sender may fix the request and resend with the key
    expect((await send(a, id, { headers: { 'idempotency-key': 'refused' }, body: 'not json' })).status).toBe(400);
    expect(await h.redis.exists(redisKeyOf(id, 'refused'))).toBe(0);
    const fixed = await send(a, id, withKey('refused'));
    expect([fixed.status, fixed.headers.get('idempotent-replayed')]).toEqual([202, null]);
  });

  it('keys belong to an endpoint: the same key on another endpoint is another event', async () => {
    const account = await h.account();
    const [one, two] = [await h.endpoint(account), await h.endpoint(account)];
    const [x, y] = [await send(a, one, withKey('shared')), await send(a, two, withKey('shared'))];
    expect(x.headers.get('x-relay-event-id')).not.toBe(y.headers.get('x-relay-event-id'));
    expect(y.headers.get('idempotent-replayed')).toBeNull();
  });

  it('while Redis cannot be asked the request goes on without de-duplication (receivers dedupe on X-Relay-Delivery-Id)', async () => {
    const cut = await h.gateway({ limiterRedisUrl: 'redis://127.0.0.1:1' });
    const id = await h.endpoint(await h.account());
    const [x, y] = [await send(cut, id, withKey('no-redis')), await send(cut, id, withKey('no-redis'))];
    expect([x.status, y.status]).toEqual([202, 202]);
    expect(x.headers.get('x-relay-event-id')).not.toBe(y.headers.get('x-relay-event-id'));
    await eventually(async () => h.deliveriesOf(id).length === 2, 10000, 'two deliveries');
  });

  it('a busy event loop: an answer already waiting when the deadline passes is read, so a key held or accepted is never taken for Redis being down', async () => {
    const redis = new Redis(infra.redisUrl, limiterRedisOptions(LATE_ANSWER_MS));
    try {
      await eventually(async () => redis.status === 'ready', 5000, 'redis');
      let unavailable = 0;
      const store = createIdempotencyStore({
        redis,
        deadlineMs: 50,
        namespace: h.namespace,
        windowMs: 60_000,
        logger: testLogger().logger,
        onUnavailable: () => void unavailable++,
      });
      /** a claim whose answer comes while the loop is blocked past the deadline */
      const claimWhileBusy = async (eventId: string) => {
        const claim = store.claim('ep_busy', 'busy-key', eventId);
        await new Promise((r) => setImmediate(r)); // the script is written
        const until = Date.now() + 300;
        while (Date.now() < until);
        return claim;
      };
      expect(await store.claim('ep_busy', 'busy-key', 'evt_first')).toEqual({ state: 'claimed' });
      expect(await claimWhileBusy('evt_second')).toEqual({ state: 'in_flight' });
      await store.complete('ep_busy', 'busy-key', 'evt_first');
      expect(await claimWhileBusy('evt_third')).toEqual({ state: 'replay', eventId: 'evt_first' });
      expect(unavailable).toBe(0);
    } finally {
      redis.disconnect();
    }
  });
});
