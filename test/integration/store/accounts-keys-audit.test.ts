import {
  accountExists,
  apiKeyByDigest,
  apiKeyRolesOf,
  apiKeysOfAccount,
  appendAudit,
  auditRows,
  connectStore,
  deleteAccountApiKey,
  findAccount,
  findAccountApiKey,
  insertAccount,
  insertApiKey,
  setPlanLimits,
  touchApiKey,
} from '@relay/store';
import type { ApiKeyDoc, Store } from '@relay/store';
import { testNamespace } from '../../support/infra';

/*
 * Accounts, API keys and the audit history as libs/store keeps them (the
 * management API asks these functions, never a model), on the real store.
 */
const { mongodbUrl } = testNamespace('storeaccounts');
let store: Store;
const plan = { name: 'pro', monthly_accepted_events: 500, payload_limit_bytes: 1024 };
const key = (id: string, account: string, over: Partial<ApiKeyDoc> = {}): ApiKeyDoc => ({
  _id: id,
  account_id: account,
  digest: `${id}`.padEnd(64, '0'),
  prefix: 'rk_abcd',
  role: 'viewer',
  name: null,
  created_by: null,
  created_at: new Date(Date.UTC(2026, 10, 26, 12, Number(id.slice(-1)))),
  last_used_at: null,
  ...over,
});

beforeAll(async () => {
  store = await connectStore(mongodbUrl);
});

afterAll(async () => {
  await store.connection.dropDatabase();
  await store.close();
});

describe('accounts, API keys and audit rows of libs/store (real store)', () => {
  it('insertAccount, findAccount, accountExists; setPlanLimits changes only the fields given and returns the plan before', async () => {
    expect(await insertAccount(store, { id: 'acc_s1', name: 'one', plan })).toMatchObject({
      id: 'acc_s1',
      name: 'one',
      plan,
      created_at: expect.any(Date),
    });
    expect(await accountExists(store, 'acc_s1')).toBe(true);
    expect(await accountExists(store, 'acc_none')).toBe(false);
    expect(await setPlanLimits(store, 'acc_s1', { monthly_accepted_events: 900 })).toEqual(plan);
    expect((await findAccount(store, 'acc_s1'))?.plan).toEqual({ ...plan, monthly_accepted_events: 900 });
    expect(await setPlanLimits(store, 'acc_none', { monthly_accepted_events: 1 })).toBeNull();
    expect(await findAccount(store, 'acc_none')).toBeNull();
  });

  it('API keys: by digest, by account oldest first, one of the account’s only, roles, delete', async () => {
    await insertApiKey(store, key('key_2', 'acc_k', { role: 'owner' }));
    await insertApiKey(store, key('key_1', 'acc_k'));
    await insertApiKey(store, key('key_3', 'acc_other'));
    expect((await apiKeyByDigest(store, key('key_1', 'acc_k').digest))?._id).toBe('key_1');
    expect(await apiKeyByDigest(store, 'f'.repeat(64))).toBeNull();
    expect((await apiKeysOfAccount(store, 'acc_k')).map((k) => k._id)).toEqual(['key_1', 'key_2']);
    expect(await findAccountApiKey(store, 'acc_k', 'key_3')).toBeNull();
    expect((await apiKeyRolesOf(store, 'acc_k')).sort()).toEqual(['owner', 'viewer']);
    expect(await deleteAccountApiKey(store, 'acc_k', 'key_3')).toBe(false);
    expect(await deleteAccountApiKey(store, 'acc_other', 'key_3')).toBe(true);
  });

  it('touchApiKey writes the last use only over one older than the bound', async () => {
    const at = new Date('2026-11-26T13:00:00Z');
    await touchApiKey(store, 'key_1', at, new Date(at.getTime() - 60_000));
    expect((await findAccountApiKey(store, 'acc_k', 'key_1'))?.last_used_at).toEqual(at);
    // a second process a moment later, with the same bound: the stored use is recent enough
    await touchApiKey(store, 'key_1', new Date(at.getTime() + 1000), new Date(at.getTime() - 59_000));
    expect((await findAccountApiKey(store, 'acc_k', 'key_1'))?.last_used_at).toEqual(at);
  });

  it('audit rows: appended in one command, read newest first, per endpoint, before a time, at most `limit`', async () => {
    const t = (m: number) => new Date(Date.UTC(2026, 10, 26, 12, m));
    await appendAudit(store, [
      { id: 'aud_1', account_id: 'acc_a', action: 'endpoint_created', actor: 'rk_abcd', endpoint_id: 'ep_1', at: t(1) },
      { id: 'aud_2', account_id: 'acc_a', action: 'key_created', actor: 'rk_abcd', key_id: 'key_1', at: t(2) },
      {
        id: 'aud_3',
        account_id: 'acc_a',
        action: 'endpoint_updated',
        actor: 'rk_abcd',
        endpoint_id: 'ep_1',
        details: { fields: ['name'] },
        at: t(3),
      },
      { id: 'aud_4', account_id: 'acc_b', action: 'endpoint_created', actor: 'rk_efgh', endpoint_id: 'ep_2', at: t(4) },
    ]);
    expect((await auditRows(store, 'acc_a', 10, null)).map((r) => r.id)).toEqual(['aud_3', 'aud_2', 'aud_1']);
    expect((await auditRows(store, 'acc_a', 10, null, 'ep_1')).map((r) => r.id)).toEqual(['aud_3', 'aud_1']);
    expect((await auditRows(store, 'acc_a', 10, t(3))).map((r) => r.id)).toEqual(['aud_2', 'aud_1']);
    expect((await auditRows(store, 'acc_a', 1, null)).map((r) => r.id)).toEqual(['aud_3']);
    expect((await auditRows(store, 'acc_a', 1, null))[0]).toMatchObject({ id: 'aud_3', details: { fields: ['name'] } });
    await appendAudit(store, []);
  });
});
