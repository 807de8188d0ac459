import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '@relay/endpoints';
import { IngestHarness } from '../ingest/harness';
import type { GatewayInstance } from '../ingest/harness';
import { send } from '../ingest/http';

/** Spec "Limits", on a gateway whose clock the test moves. */
let h: IngestHarness;
let gw: GatewayInstance;
let account: string;
let now = Date.parse('2025-05-05T10:00:10Z');

beforeAll(async () => {
  h = await IngestHarness.start('conf-limits');
  // exact counts need Redis to decide each one: a busy machine's slow answer (past the default
  // 200 ms) would hand it to the per-process fallback, which the outage tests cover
  gw = await h.gateway({ clock: () => new Date(now), limiterTimeoutMs: 2000 });
  account = await h.account();
});

afterAll(async () => {
  await h?.stop();
});

async function statuses(id: string, count: number, init: Parameters<typeof send>[2] = {}): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => send(gw, id, init)));
    out.push(...batch.map((r) => r.status));
  }
  return out;
}

const tally = (list: number[]): Record<number, number> =>
  list.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

describe('Limits', () => {
  it('"query parameter pairs: 64"', async () => {
    const id = await h.endpoint(account, { payload_format: 'query', methods: ['GET'] });
    const pairs = (n: number): string => Array.from({ length: n }, (_, i) => `k${i}=v`).join('&');
    expect((await send(gw, id, { method: 'GET', query: pairs(64) })).status).toBe(202);
    expect((await send(gw, id, { method: 'GET', query: pairs(65) })).json.code).toBe('malformed_query_param');
  });

  it('"Base64 query parameter name length: 255 characters"', async () => {
    const name = 'n'.repeat(255);
    const id = await h.endpoint(account, {
      payload_format: 'query_base64_json',
      methods: ['GET'],
      query_param_name: name,
    });
    expect(
      (await send(gw, id, { method: 'GET', query: `${name}=${Buffer.from('{"ok":true}').toString('base64')}` })).status,
    ).toBe(202);
  });

  it('"payload size: plan-dependent": a body of exactly the plan limit passes, one byte more gets 413', async () => {
    const small = await h.account({ payload_limit_bytes: 100 });
    const id = await h.endpoint(small, { payload_format: 'text' });
    const text = { 'content-type': 'text/plain' };
    expect((await send(gw, id, { headers: text, body: 'x'.repeat(100) })).status).toBe(202);
    expect((await send(gw, id, { headers: text, body: 'x'.repeat(101) })).json.code).toBe('payload_too_large');
  });

  it('"monthly accepted events: plan-dependent": accepted events only, counted per account in the UTC month', async () => {
    const acc = await h.account({ monthly_accepted_events: 3 });
    const a = await h.endpoint(acc);
    const b = await h.endpoint(acc, { inbound_auth: { type: 'BEARER', tokens: [h.seal('t')] } });
    expect((await send(gw, b)).status).toBe(401); // not accepted: not counted
    expect([
      (await send(gw, a)).status,
      (await send(gw, b, { headers: { authorization: 'Bearer t' } })).status,
      (await send(gw, a)).status,
    ]).toEqual([202, 202, 202]);
    const over = await send(gw, b, { headers: { authorization: 'Bearer t' } });
    expect([over.status, over.json.code, over.headers.get('retry-after')]).toEqual([429, 'quota_exceeded', '60']);
    const key = `${h.namespace}:quota:${acc}:2025-05`;
    expect(await h.redis.get(key)).toBe('3');
    const ttl = await h.redis.ttl(key);
    expect(ttl).toBeGreaterThan(39 * 86400);
    expect(ttl).toBeLessThanOrEqual(40 * 86400);
  });

  it(`"per-endpoint rate limit: requests per minute, adjustable per endpoint; default" — the default is ${DEFAULT_RATE_LIMIT_PER_MINUTE}/min`, async () => {
    const id = await h.endpoint(account, {}, 0);
    expect(tally(await statuses(id, DEFAULT_RATE_LIMIT_PER_MINUTE + 5))).toEqual({
      202: DEFAULT_RATE_LIMIT_PER_MINUTE,
      429: 5,
    });
    // one GCRA bucket per endpoint, full: every admitted request added 60,000 request-ms
    const key = `${h.namespace}:rate:${id}:{${h.namespace}:quota:${account}:${new Date(now).toISOString().slice(0, 7)}}`;
    expect(await h.redis.hgetall(key)).toEqual({
      level: String(DEFAULT_RATE_LIMIT_PER_MINUTE * 60_000),
      at: String(now),
    });
    expect(await h.redis.pttl(key)).toBeLessThanOrEqual(61_000);
  });

  it('"per-endpoint rate limit … adjustable per endpoint": a new limit applies to the next request', async () => {
    const id = await h.endpoint(account, { rate_limit_per_minute: 2 });
    expect(tally(await statuses(id, 3))).toEqual({ 202: 2, 429: 1 });
    await h.update(id, { rate_limit_per_minute: 5 });
    expect(tally(await statuses(id, 4))).toEqual({ 202: 3, 429: 1 });
  });

  it('"requests per minute": 1/min admits a request 61 s (and 60 s) after the only other one; Retry-After is the real wait', async () => {
    const id = await h.endpoint(account, { rate_limit_per_minute: 1 });
    const start = now;
    expect((await send(gw, id)).status).toBe(202);
    now = start + 30_000;
    const early = await send(gw, id);
    expect([early.status, early.json.code, early.headers.get('retry-after')]).toEqual([429, 'rate_limited', '30']);
    now = start + 61_000;
    expect((await send(gw, id)).status).toBe(202);
    now = start + 121_000;
    expect((await send(gw, id)).status).toBe(202);
  });

  it('"requests per minute": N/min admits N at once and never asks a sender to wait more than 60 s; Retry-After is rounded up to whole seconds', async () => {
    const id = await h.endpoint(account, { rate_limit_per_minute: 7 });
    const start = now;
    expect(tally(await statuses(id, 8))).toEqual({ 202: 7, 429: 1 });
    const refused = await send(gw, id);
    // one slot frees every 60/7 s = 8.571… s
    expect(refused.headers.get('retry-after')).toBe('9');
    now = start + 8_571;
    expect((await send(gw, id)).status).toBe(429);
    now = start + 8_572;
    expect((await send(gw, id)).status).toBe(202);
    for (const limit of [1, 2, 600]) {
      const one = await h.endpoint(account, { rate_limit_per_minute: limit });
      const answers = await statuses(one, limit + 1);
      expect(tally(answers)).toEqual({ 202: limit, 429: 1 });
      const wait = Number((await send(gw, one)).headers.get('retry-after'));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
    }
  });

  it('"monthly accepted events": the count starts again in the next UTC calendar month; Retry-After 60 while used up', async () => {
    const acc = await h.account({ monthly_accepted_events: 1 });
    const id = await h.endpoint(acc, { rate_limit_per_minute: 100 });
    now = Date.parse('2025-05-31T23:59:59Z');
    expect((await send(gw, id)).status).toBe(202);
    const over = await send(gw, id);
    expect([over.status, over.json.code, over.headers.get('retry-after')]).toEqual([429, 'quota_exceeded', '60']);
    now = Date.parse('2025-06-01T00:00:00Z');
    expect((await send(gw, id)).status).toBe(202);
    expect([
      await h.redis.get(`${h.namespace}:quota:${acc}:2025-05`),
      await h.redis.get(`${h.namespace}:quota:${acc}:2025-06`),
    ]).toEqual(['1', '1']);
  });

  it('"Retry-After on endpoint_unavailable and quota 429: 60 seconds"', async () => {
    const paused = await h.endpoint(account, { paused: true });
    expect((await send(gw, paused)).headers.get('retry-after')).toBe('60');
    const acc = await h.account({ monthly_accepted_events: 0 });
    expect((await send(gw, await h.endpoint(acc))).headers.get('retry-after')).toBe('60');
  });

  it('"file uploads / multipart: not accepted"', async () => {
    const id = await h.endpoint(account, { payload_format: 'json' });
    expect(
      (await send(gw, id, { headers: { 'content-type': 'multipart/form-data; boundary=b' }, body: '--b--' })).status,
    ).toBe(415);
  });
});
