import { createHash, createHmac } from 'node:crypto';
import { idempotencyKey } from '@relay/contracts';
import { IngestHarness } from './harness';
import type { GatewayInstance } from './harness';
import { send } from './http';

/**
 * Dedup on the provider's delivery id, on the real gateway app, Redis and RabbitMQ: a
 * provider's retry (same delivery id) is answered like an Idempotency-Key replay and delivered
 * once, across gateway instances sharing Redis; the key lives for the window only.
 */
let h: IngestHarness;
let a: GatewayInstance;
let b: GatewayInstance;

beforeAll(async () => {
  h = await IngestHarness.start('dedup');
  a = await h.gateway();
  b = await h.gateway();
});

afterAll(async () => {
  await h?.stop();
});

const SECRET = 'gh-webhook-secret';
const BODY = '{"action":"opened","number":7}';
const github = (delivery: string, secret = SECRET) => ({
  headers: {
    'x-github-delivery': delivery,
    'x-github-event': 'pull_request',
    'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(BODY).digest('hex')}`,
  },
  body: BODY,
});
const redisKeyOf = (endpointId: string, delivery: string) =>
  idempotencyKey(
    h.namespace,
    endpointId,
    createHash('sha256').update(`\nx-github-delivery\n${delivery}`).digest('base64url'),
  );

async function githubEndpoint(extra: Record<string, unknown> = {}): Promise<string> {
  return h.endpoint(await h.account(), {
    rate_limit_per_minute: 1000,
    inbound_auth: { type: 'HMAC', preset: 'github', secrets: [h.seal(SECRET)], ...extra } as never,
  });
}

describe('dedup on the provider delivery id', () => {
  it('a repeat within the window: 202 with the first event id, Idempotent-Replayed, no second delivery, a DUPLICATE row', async () => {
    const id = await githubEndpoint();
    const first = await send(a, id, github('72d3162e-cc78-11e3-81ab-4c9367dc0958'));
    const again = await send(a, id, github('72d3162e-cc78-11e3-81ab-4c9367dc0958'));
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([202, 202, 'true']);
    expect(again.headers.get('x-relay-event-id')).toBe(first.headers.get('x-relay-event-id'));
    const rows = await h.waitForRows(id, 2);
    expect(rows.map((r) => r.outcome)).toEqual(['ACCEPTED', 'DUPLICATE']);
    await h.settle(a);
    expect(h.deliveriesOf(id)).toHaveLength(1);
  });

  it('the key is bounded by the window (24 h by default, window_seconds when set); after it, the id is a new event', async () => {
    const id = await githubEndpoint({ dedup: { window_seconds: 120 } });
    expect((await send(a, id, github('win-1'))).status).toBe(202);
    const ttl = await h.redis.pttl(redisKeyOf(id, 'win-1'));
    expect(ttl).toBeGreaterThan(100_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
    // the window passing: Redis expires the key
    await h.redis.pexpire(redisKeyOf(id, 'win-1'), 1);
    await new Promise((r) => setTimeout(r, 20));
    const later = await send(a, id, github('win-1'));
    expect([later.status, later.headers.get('idempotent-replayed')]).toEqual([202, null]);
    await h.settle(a);
    expect(h.deliveriesOf(id)).toHaveLength(2);
  });

  it('a forged request carrying a seen or unseen id is 401 and claims nothing', async () => {
    const id = await githubEndpoint();
    const forged = await send(a, id, github('forged-1', 'not-the-secret'));
    expect(forged.status).toBe(401);
    expect(await h.redis.exists(redisKeyOf(id, 'forged-1'))).toBe(0);
    const genuine = await send(a, id, github('forged-1'));
    expect([genuine.status, genuine.headers.get('idempotent-replayed')]).toEqual([202, null]);
  });

  it('two gateways at once: concurrent retries of one id make one event and one delivery; the rest replay or get 409', async () => {
    const id = await githubEndpoint();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i % 2 ? a : b, id, github('burst-1'))));
    const ids = new Set(answers.filter((r) => r.status === 202).map((r) => r.headers.get('x-relay-event-id')));
    expect(ids.size).toBe(1);
    expect(answers.filter((r) => r.status !== 202).map((r) => [r.status, r.json.code])).toEqual(
      answers.filter((r) => r.status !== 202).map(() => [409, 'delivery_id_in_use']),
    );
    await h.settle(a);
    await h.settle(b);
    expect(h.deliveriesOf(id)).toHaveLength(1);
    expect(h.rowsOf(id).filter((r) => r.outcome === 'ACCEPTED')).toHaveLength(1);
  });

  it('dedup off for the endpoint: every request is its own event', async () => {
    const id = await githubEndpoint({ dedup: { enabled: false } });
    await send(a, id, github('off-1'));
    const again = await send(a, id, github('off-1'));
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });
});
