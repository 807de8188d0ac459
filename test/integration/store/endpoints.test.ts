import {
  accountPlan,
  accountPlans,
  connectStore,
  enabledTargetRoutes,
  findEndpoint,
  findEndpoints,
} from '@relay/store';
import type { Store } from '@relay/store';
import { testNamespace } from '../../support/infra';
import { modelsOf } from '../../support/store-models';

/*
 * The endpoint reads libs/store gives the gateway's endpoint cache (code
 * outside libs/store does not query the store's models), on the real store.
 */
const { mongodbUrl } = testNamespace('storeendpoints');
let store: Store;
const now = new Date('2026-11-26T12:00:00Z');

const endpoint = (id: string, account: string) => ({
  _id: id,
  account_id: account,
  name: id,
  methods: ['POST'],
  payload_format: 'json',
  inbound_auth: { mode: 'none' },
  created_at: now,
  updated_at: now,
});
const target = (id: string, over: Record<string, unknown> = {}) => ({
  _id: id,
  account_id: 'acc_a',
  endpoint_id: 'ep_a',
  kind: 'webhook',
  name: id,
  enabled: true,
  config: { url: 'https://example.com/', secret: 'never-read' },
  flagged: null,
  created_at: now,
  updated_at: now,
  ...over,
});

beforeAll(async () => {
  store = await connectStore(mongodbUrl);
  await modelsOf(store).accounts.create([
    {
      _id: 'acc_a',
      name: 'a',
      plan: { name: 'pro', monthly_accepted_events: 500, payload_limit_bytes: 1024 },
      created_at: now,
    },
    {
      _id: 'acc_b',
      name: 'b',
      plan: { name: 'starter', monthly_accepted_events: 100, payload_limit_bytes: 2048 },
      created_at: now,
    },
  ]);
  // an account written before plans existed: the schema would refuse it now, the store still holds such
  await modelsOf(store).accounts.collection.insertOne({ _id: 'acc_old', name: 'old', created_at: now } as never);
  await modelsOf(store).endpoints.create([endpoint('ep_a', 'acc_a'), endpoint('ep_b', 'acc_b')]);
  await modelsOf(store).targets.create([
    target('tg_a1', { ordering: { key: { from: 'path', path: 'data.id' } } }),
    target('tg_a2', { kind: 'embed_chat', routing: { match: 'all', rules: [{ kind: 'exists', path: 'type' }] } }),
    target('tg_off', { enabled: false }),
    target('tg_b1', { endpoint_id: 'ep_b', account_id: 'acc_b' }),
  ]);
});

afterAll(async () => {
  await store.connection.dropDatabase();
  await store.close();
});

const byId = <T extends { id: string }>(xs: T[]): T[] => [...xs].sort((a, b) => a.id.localeCompare(b.id));

describe('endpoint reads of libs/store (real store)', () => {
  it('findEndpoint: the record by id (id, not _id); null for an unknown id', async () => {
    expect(await findEndpoint(store, 'ep_a')).toMatchObject({ id: 'ep_a', account_id: 'acc_a', name: 'ep_a' });
    expect(await findEndpoint(store, 'ep_missing')).toBeNull();
  });

  it('findEndpoints: those of the ids that exist, in one answer', async () => {
    expect(byId(await findEndpoints(store, ['ep_a', 'ep_b', 'ep_missing'])).map((e) => e.id)).toEqual(['ep_a', 'ep_b']);
    expect(await findEndpoints(store, [])).toEqual([]);
  });

  it('enabledTargetRoutes: the enabled targets of one endpoint or several, routing and ordering fields only (no config)', async () => {
    const one = byId(await enabledTargetRoutes(store, 'ep_a'));
    expect(one).toEqual([
      {
        id: 'tg_a1',
        endpoint_id: 'ep_a',
        kind: 'webhook',
        routing: null,
        ordering: { key: { from: 'path', path: 'data.id' } },
        updated_at: now,
      },
      {
        id: 'tg_a2',
        endpoint_id: 'ep_a',
        kind: 'embed_chat',
        routing: { match: 'all', rules: [{ kind: 'exists', path: 'type' }] },
        ordering: null,
        updated_at: now,
      },
    ]);
    expect(byId(await enabledTargetRoutes(store, ['ep_a', 'ep_b'])).map((t) => t.id)).toEqual([
      'tg_a1',
      'tg_a2',
      'tg_b1',
    ]);
    expect(await enabledTargetRoutes(store, 'ep_missing')).toEqual([]);
  });

  it('accountPlan and accountPlans: the stored plan; null for an account without one; a missing account absent', async () => {
    expect(await accountPlan(store, 'acc_a')).toMatchObject({
      monthly_accepted_events: 500,
      payload_limit_bytes: 1024,
    });
    expect(await accountPlan(store, 'acc_old')).toBeNull();
    expect(await accountPlan(store, 'acc_missing')).toBeNull();
    const plans = await accountPlans(store, ['acc_a', 'acc_b', 'acc_old', 'acc_missing']);
    expect(plans.get('acc_a')).toMatchObject({ payload_limit_bytes: 1024 });
    expect(plans.get('acc_b')).toMatchObject({ payload_limit_bytes: 2048 });
    expect(plans.get('acc_old')).toBeNull();
    expect(plans.has('acc_missing')).toBe(false);
  });
});
