import { must } from '@relay/client';
import { cacheChangesChannel } from '@relay/contracts';
import { eventually } from '../../support/infra';
import { PLAN, startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/**
 * The account's plan — payload limit and monthly quota — read and set by an
 * owner key; a change is audited and announced once for the account, so every gateway
 * replaces the plan it caches (the gateway side: test/e2e/plan-limits.test.ts,
 * test/e2e/told-caches.test.ts).
 */
let fx: ManagementFixture;
beforeAll(async () => {
  fx = await startManagement('mgmt-plan');
});
afterAll(async () => {
  await fx?.close();
});

/**
 * The announcements made so far, all of them: a marker published after them arrives after
 * them (Redis keeps a channel's order for each subscriber), so once it is seen nothing is missing.
 */
async function announcements(): Promise<string[]> {
  const marker = `endpoint marker-${Math.random()}`;
  await fx.redis.publish(cacheChangesChannel(fx.namespace), `1 ${marker}`);
  await eventually(async () => fx.announced.includes(marker), 5000, 'the marker announcement');
  return fx.announced.splice(0).filter((id) => id !== marker);
}

describe('the plan', () => {
  it('an owner key reads it', async () => {
    expect(await must(fx.client.GET('/v1/account/plan'))).toEqual({ account_id: fx.accountId, plan: PLAN });
  });

  it('an owner key sets limits; the change is audited, shown by usage and announced once for the account', async () => {
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) ids.push((await must(fx.client.POST('/v1/endpoints', { body: { name } }))).id);
    const other = await fx.newAccount();
    await must(fx.clientAs(other.apiKey).POST('/v1/endpoints', { body: { name: 'theirs' } }));
    await announcements(); // those of the creates

    const res = await must(
      fx.client.PATCH('/v1/account/plan', { body: { payload_limit_bytes: 2048, monthly_accepted_events: 10 } }),
    );
    const after = { ...PLAN, payload_limit_bytes: 2048, monthly_accepted_events: 10 };
    expect(res).toEqual({ account_id: fx.accountId, plan: after });
    expect(await must(fx.client.GET('/billing/usage'))).toMatchObject({ plan: after, limit: 10 });
    // announced: this account, once, and nothing of the other account
    expect(await announcements()).toEqual([`account ${fx.accountId}`]);

    const audit = await must(fx.client.GET('/v1/audit', { params: { query: { limit: 1 } } }));
    expect(audit.data[0]).toEqual({
      id: expect.any(String),
      action: 'plan_changed',
      actor: fx.apiKey.slice(0, 7),
      actor_name: null,
      source_ip: expect.any(String),
      at: expect.any(String),
      endpoint_id: null,
      key_id: null,
      details: { before: PLAN, after },
    });
  });

  it('a PATCH that repeats the stored values changes nothing: no audit row, no announcement', async () => {
    const current = (await must(fx.client.GET('/v1/account/plan'))).plan;
    const rows = (await must(fx.client.GET('/v1/audit'))).data.length;
    await announcements();
    expect(
      (
        await must(
          fx.client.PATCH('/v1/account/plan', {
            body: { name: current.name, payload_limit_bytes: current.payload_limit_bytes },
          }),
        )
      ).plan,
    ).toEqual(current);
    await must(fx.client.PATCH('/v1/account/plan', { body: {} }));
    expect((await must(fx.client.GET('/v1/audit'))).data).toHaveLength(rows);
    expect(await announcements()).toEqual([]);
  });

  it.each([
    [
      'a payload limit under 1 KiB',
      { payload_limit_bytes: 10 },
      'payload_limit_bytes',
      'must be an integer from 1024 to 104857600',
    ],
    ['a fractional quota', { monthly_accepted_events: 1.5 }, 'monthly_accepted_events', 'must be an integer'],
    [
      'a negative quota',
      { monthly_accepted_events: -1 },
      'monthly_accepted_events',
      'must be an integer from 0 to 1000000000000',
    ],
    ['an empty name', { name: '' }, 'name', 'must not be empty'],
    ['an unknown field', { burst: 5 }, 'burst', 'is not a known field'],
  ])('%s is a 400 naming the field, and nothing changes', async (_what, body, field, message) => {
    const before = await must(fx.client.GET('/v1/account/plan'));
    // raw: a change the document refuses, for the 400 naming the field
    const res = await fx.api('patch', '/v1/account/plan', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'validation_failed',
      message: `${field}: ${message}`,
      errors: [{ field, message }],
    });
    expect(await must(fx.client.GET('/v1/account/plan'))).toEqual(before);
  });

  it('only owner keys read or set it (403 for admin, editor and viewer)', async () => {
    for (const role of ['admin', 'editor', 'viewer'] as const) {
      const { secret } = await fx.keyWithRole(role);
      const as = fx.clientAs(secret);
      expect([
        role,
        (await as.GET('/v1/account/plan')).response.status,
        (await as.PATCH('/v1/account/plan', { body: { monthly_accepted_events: 1 } })).response.status,
      ]).toEqual([role, 403, 403]);
    }
  });
});
