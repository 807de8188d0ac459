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
  gw = await h.gateway({ clock: () => new Date(now) });
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

const tally = (list: number[]): Record<number, number> => list.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});

describe('Limits', () => {
  it('"query parameter pairs: 64"', async () => {
    const id = await h.endpoint(account, { payload_format: 'query', methods: ['GET'] });
    const pairs = (n: number): string => Array.from({ length: n }, (_, i) => `k${i}=v`).join('&');
    expect((await send(gw, id, { method: 'GET', query: pairs(64) })).status).toBe(202);
    expect((await send(gw, id, { method: 'GET', query: pairs(65) })).json.code).toBe('malformed_query_param');
  });

  it('"Base64 query parameter name length: 255 characters"', async () => {
    const name = 'n'.repeat(255);
    const id = await h.endpoint(account, { payload_format: 'query_base64_json', methods: ['GET'], query_param_name: name });
    expect((await send(gw, id, { method: 'GET', query: `${name}=${Buffer.from('{"ok":true}').toString('base64')}` })).status).toBe(202);
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
    expect([(await send(gw, a)).status, (await send(gw, b, { headers: { authorization: 'Bearer t' } })).status, (await send(gw, a)).status]).toEqual([202, 202, 202]);
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
    expect(tally(await statuses(id, DEFAULT_RATE_LIMIT_PER_MINUTE + 5))).toEqual({ 202: DEFAULT_RATE_LIMIT_PER_MINUTE, 429: 5 });
    const minute = Math.floor(now / 60_000);
    expect(await h.redis.get(`${h.namespace}:rate:${id}:${minute}`)).toBe(String(DEFAULT_RATE_LIMIT_PER_MINUTE));
  });

  it('"per-endpoint rate limit … adjustable per endpoint": a new limit applies to the next request', async () => {
    const id = await h.endpoint(account, { rate_limit_per_minute: 2 });
    expect(tally(await statuses(id, 3))).toEqual({ 202: 2, 429: 1 });
    await h.update(id, { rate_limit_per_minute: 5 });
    expect(tally(await statuses(id, 4))).toEqual({ 202: 3, 429: 1 });
  });

  it('the rate window slides: a burst at the end of one minute still counts at the start of the next', async () => {
    now = Date.parse('2025-05-05T10:05:59Z');
    const id = await h.endpoint(account, { rate_limit_per_minute: 10 });
    expect(tally(await statuses(id, 10))).toEqual({ 202: 10 });
    now = Date.parse('2025-05-05T10:06:01Z');
    const next = await send(gw, id);
    expect(next.status).toBe(429);
    // 10 × 59/60 of the previous minute still counts; 5 s later it weighs 9 and one more fits
    expect(next.headers.get('retry-after')).toBe('5');
    now += 5000;
    expect((await send(gw, id)).status).toBe(202);
  });

  it('"Retry-After on endpoint_unavailable and quota 429: 60 seconds"', async () => {
    const paused = await h.endpoint(account, { paused: true });
    expect((await send(gw, paused)).headers.get('retry-after')).toBe('60');
    const acc = await h.account({ monthly_accepted_events: 0 });
    expect((await send(gw, await h.endpoint(acc))).headers.get('retry-after')).toBe('60');
  });

  it('"file uploads / multipart: not accepted"', async () => {
    const id = await h.endpoint(account, { payload_format: 'json' });
    expect((await send(gw, id, { headers: { 'content-type': 'multipart/form-data; boundary=b' }, body: '--b--' })).status).toBe(415);
  });
});
