import { must } from '@relay/client';
import type { ApiKeyCreate } from '@relay/client';
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { createAccountLock } from '../../../services/management-api/src/adapters/account-lock';
import { eventually, infra } from '../../support/infra';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';
import { modelsOf } from '../../support/store-models';

/**
 * API keys — created with a role (the secret shown once, stored as a
 * digest, never logged), listed (prefix, role, created, last used), revoked (refused from the
 * next request on), every change audited. Admin keys manage keys below owner only.
 */
let fx: ManagementFixture;
beforeAll(async () => {
  fx = await startManagement('mgmt-api-keys');
});
afterAll(async () => {
  await fx?.close();
});

const digest = (secret: string): string => createHash('sha256').update(secret).digest('hex');
/** The key routes through the typed client, as `key` (the owner key by default); the answer's status for the refusals. */
const createKey = (body: ApiKeyCreate, key = fx.apiKey) => fx.clientAs(key).POST('/v1/api-keys', { body });
const revoke = (keyId: string, key = fx.apiKey) =>
  fx.clientAs(key).DELETE('/v1/api-keys/{keyId}', { params: { path: { keyId } } });
const listKeys = async () => (await must(fx.client.GET('/v1/api-keys'))).data;
const endpointsStatus = async (key: string) => (await fx.clientAs(key).GET('/v1/endpoints')).response.status;

describe('creating a key', () => {
  it('answers 201 with the secret once; only its SHA-256 digest is stored; the secret is never logged or listed', async () => {
    // raw: the Cache-Control header of the one answer that holds the secret
    const res = await fx.api('post', '/v1/api-keys', { role: 'editor', name: '  CI deploys ' });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const secret = res.body.secret as string;
    expect(res.body).toEqual({
      id: expect.stringMatching(/^key_/),
      prefix: secret.slice(0, 7),
      role: 'editor',
      name: 'CI deploys',
      created_by: fx.apiKey.slice(0, 7),
      created_at: expect.any(String),
      last_used_at: null,
      secret: expect.stringMatching(/^rk_[A-Za-z0-9_-]{32}$/),
    });

    const stored = await modelsOf(fx.store).apiKeys.findById(res.body.id).lean();
    expect(stored).toMatchObject({ digest: digest(secret), role: 'editor' });
    expect(JSON.stringify(stored)).not.toContain(secret);

    const listed = await listKeys();
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(JSON.stringify(listed)).not.toContain(digest(secret));
    expect(listed).toContainEqual({
      id: res.body.id,
      prefix: secret.slice(0, 7),
      role: 'editor',
      name: 'CI deploys',
      created_by: fx.apiKey.slice(0, 7),
      created_at: res.body.created_at,
      last_used_at: null,
    });

    // the new key works, with its role
    await must(fx.clientAs(secret).POST('/v1/endpoints', { body: { name: 'by the new key' } }));
    expect(JSON.stringify(fx.logLines())).not.toContain(secret);
  });

  it('records when a key last authenticated a request', async () => {
    const { secret, id } = await fx.keyWithRole('viewer');
    expect(await listKeys()).toContainEqual(expect.objectContaining({ id, last_used_at: null }));
    await must(fx.clientAs(secret).GET('/v1/endpoints'));
    const used = await eventually(
      async () => (await listKeys()).find((k) => k.id === id && k.last_used_at),
      5000,
      'last_used_at',
    );
    expect(Date.parse(used.last_used_at!)).toBeGreaterThanOrEqual(Date.parse(used.created_at));
  });

  it('an admin key creates keys below owner, not owner keys; editor and viewer keys create none', async () => {
    const admin = await fx.keyWithRole('admin');
    for (const role of ['admin', 'editor', 'viewer'] as const)
      expect([role, (await createKey({ role }, admin.secret)).response.status]).toEqual([role, 201]);
    const owner = await createKey({ role: 'owner' }, admin.secret);
    expect(owner.response.status).toBe(403);
    expect(owner.error).toEqual({
      code: 'forbidden',
      message: "This API key's role (admin) cannot create or revoke owner keys; it needs owner.",
    });
    for (const role of ['editor', 'viewer'] as const) {
      const key = await fx.keyWithRole(role);
      expect([role, (await createKey({ role: 'viewer' }, key.secret)).response.status]).toEqual([role, 403]);
    }
  });
});

describe('revoking a key', () => {
  it('refuses the key from the very next request (401), and it is gone from the list', async () => {
    const { secret, id } = await fx.keyWithRole('editor');
    expect(await endpointsStatus(secret)).toBe(200);
    expect((await revoke(id)).response.status).toBe(204);
    const refused = await fx.clientAs(secret).GET('/v1/endpoints');
    expect(refused.response.status).toBe(401);
    expect(refused.error?.code).toBe('unauthorized');
    expect((await listKeys()).map((k) => k.id)).not.toContain(id);
    expect((await revoke(id)).response.status).toBe(404);
  });

  it('an admin key revokes keys below owner, never an owner key', async () => {
    const admin = await fx.keyWithRole('admin');
    const other = await fx.keyWithRole('admin');
    expect((await revoke(other.id, admin.secret)).response.status).toBe(204);
    const owner = await fx.keyWithRole('owner');
    expect((await revoke(owner.id, admin.secret)).response.status).toBe(403);
    await must(fx.clientAs(owner.secret).GET('/v1/account/plan')); // still works
  });

  it('another account’s key is not found', async () => {
    const other = await fx.newAccount();
    const theirs = await modelsOf(fx.store).apiKeys.findOne({ account_id: other.accountId }).lean();
    expect((await revoke(theirs!._id)).response.status).toBe(404);
    expect(await endpointsStatus(other.apiKey)).toBe(200);
  });

  it('the last owner key of an account cannot be revoked (409 last_owner_key); with another owner key it can', async () => {
    const account = await fx.newAccount();
    const only = await modelsOf(fx.store).apiKeys.findOne({ account_id: account.accountId }).lean();
    const res = await revoke(only!._id, account.apiKey);
    expect(res.response.status).toBe(409);
    expect(res.error).toEqual({ code: 'last_owner_key', message: expect.stringContaining('last owner key') });
    const second = await must(createKey({ role: 'owner' }, account.apiKey));
    expect((await revoke(only!._id, second.secret)).response.status).toBe(204);
    expect(await endpointsStatus(account.apiKey)).toBe(401);
  });
});

describe('revocations of one account take turns, in every process (adapters/account-lock)', () => {
  it('two owner keys revoking each other at once leave exactly one owner key: one 204, one 409 last_owner_key', async () => {
    for (let round = 0; round < 3; round++) {
      const account = await fx.newAccount();
      const first = await modelsOf(fx.store).apiKeys.findOne({ account_id: account.accountId }).lean();
      const second = await must(createKey({ role: 'owner' }, account.apiKey));
      const [a, b] = await Promise.all([revoke(second.id, account.apiKey), revoke(first!._id, second.secret)]);
      expect([a.response.status, b.response.status].sort()).toEqual([204, 409]);
      expect([a, b].find((r) => r.response.status === 409)!.error?.code).toBe('last_owner_key');
      expect(await modelsOf(fx.store).apiKeys.countDocuments({ account_id: account.accountId })).toBe(1);
    }
  });

  it("two processes never hold one account's lock at once; other accounts do not wait", async () => {
    const redisA = new Redis(infra.redisUrl);
    const redisB = new Redis(infra.redisUrl);
    try {
      const [lockA, lockB] = [createAccountLock(redisA, fx.namespace), createAccountLock(redisB, fx.namespace)];
      let inside = 0;
      let most = 0;
      const critical = async () => {
        inside += 1;
        most = Math.max(most, inside);
        await new Promise((r) => setTimeout(r, 20));
        inside -= 1;
      };
      await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? lockA : lockB)('acc_locked', critical)));
      expect(most).toBe(1);
      // a failing holder releases it
      await expect(lockA('acc_locked', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      expect(await redisA.exists(`${fx.namespace}:lock:account-keys:acc_locked`)).toBe(0);
      // another account runs beside a held lock
      let release!: () => void;
      const held = lockA('acc_busy', () => new Promise<void>((r) => (release = r)));
      await lockB('acc_free', async () => undefined);
      release();
      await held;
    } finally {
      redisA.disconnect();
      redisB.disconnect();
    }
  });
});

describe('key changes are audited in the account history', () => {
  it('key_created and key_revoked rows name the actor, the key, its role and prefix — never the secret', async () => {
    const admin = await fx.keyWithRole('admin');
    const created = await must(createKey({ role: 'viewer', name: 'dashboards' }, admin.secret));
    expect((await revoke(created.id, admin.secret)).response.status).toBe(204);
    const audit = await must(fx.clientAs(admin.secret).GET('/v1/audit', { params: { query: { limit: 2 } } }));
    const details = { role: 'viewer', prefix: created.prefix, name: 'dashboards' };
    expect(audit.data).toEqual([
      {
        id: expect.any(String),
        action: 'key_revoked',
        actor: admin.secret.slice(0, 7),
        actor_name: 'admin key',
        source_ip: expect.any(String),
        at: expect.any(String),
        endpoint_id: null,
        key_id: created.id,
        details,
      },
      {
        id: expect.any(String),
        action: 'key_created',
        actor: admin.secret.slice(0, 7),
        actor_name: 'admin key',
        source_ip: expect.any(String),
        at: expect.any(String),
        endpoint_id: null,
        key_id: created.id,
        details,
      },
    ]);
    expect(audit.next_before).toBe(audit.data[1]!.at);
    expect(JSON.stringify(audit)).not.toContain(created.secret);
    // editor and viewer keys do not read the account history
    expect((await fx.clientAs((await fx.keyWithRole('editor')).secret).GET('/v1/audit')).response.status).toBe(403);
  });
});
