import { IngestHarness } from './harness';
import type { GatewayInstance } from './harness';
import { send } from './http';

/**
 * "Two gateway instances share one rate limit and quota": two gateways, each with its own
 * Redis connections, endpoint cache and limiter, on one namespace. The counters are Redis's,
 * so requests spread over both instances are limited as one, and a restarted gateway continues
 * from them.
 */
let h: IngestHarness;
let a: GatewayInstance;
let b: GatewayInstance;
/** an endpoint of another account, for a gateway's first request */
let warm: string;
const clock = (): Date => new Date('2025-07-01T08:00:20Z');

beforeAll(async () => {
  h = await IngestHarness.start('shared-limits');
  a = await h.gateway({ clock });
  b = await h.gateway({ clock });
  // a first request per gateway: its limiter's first script load (EVAL, then EVALSHA) can pass
  // the 200-ms deadline on a cold process, and the per-process limiter would decide it
  warm = await h.endpoint(await h.account());
  for (const g of [a, b]) await send(g, warm);
});

afterAll(async () => {
  await h?.stop();
});

/** `count` concurrent requests, alternating between the gateways; returns how many were accepted. */
async function spread(
  endpointId: string,
  count: number,
  gateways: GatewayInstance[],
): Promise<{ accepted: number; codes: Set<string> }> {
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) => send(gateways[i % gateways.length]!, endpointId)),
  );
  return {
    accepted: answers.filter((r) => r.status === 202).length,
    codes: new Set(answers.filter((r) => r.status !== 202).map((r) => r.json.code)),
  };
}

describe('two gateway instances share one rate limit and quota', () => {
  it('the per-endpoint rate limit holds across both instances', async () => {
    const account = await h.account();
    const id = await h.endpoint(account, { rate_limit_per_minute: 10 });
    expect(await spread(id, 30, [a, b])).toEqual({ accepted: 10, codes: new Set(['rate_limited']) });
  });

  it('the monthly quota holds across both instances and across endpoints of the account', async () => {
    const account = await h.account({ monthly_accepted_events: 15 });
    const one = await h.endpoint(account);
    const two = await h.endpoint(account);
    const [x, y] = await Promise.all([spread(one, 12, [a, b]), spread(two, 12, [b, a])]);
    expect(x.accepted + y.accepted).toBe(15);
    expect(new Set([...x.codes, ...y.codes])).toEqual(new Set(['quota_exceeded']));
    expect(await h.redis.get(`${h.namespace}:quota:${account}:2025-07`)).toBe('15');
  });

  it('the counters survive a gateway restart: a new instance continues from them', async () => {
    const account = await h.account({ monthly_accepted_events: 4 });
    const id = await h.endpoint(account, { rate_limit_per_minute: 100 });
    expect((await spread(id, 3, [a])).accepted).toBe(3);
    await a.stop();
    a = await h.gateway({ clock });
    await send(a, warm);
    expect((await spread(id, 3, [a])).accepted).toBe(1);
    expect((await send(b, id)).json.code).toBe('quota_exceeded');
  });
});
