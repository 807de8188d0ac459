import { must } from '@relay/client';
import { bootstrapAccount, startService } from '../support/services';
import type { RunningService } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * A revoked key is refused at once by every management-api instance — two
 * management-api processes on one store, the key revoked through one, refused by both on the
 * very next request. (Keys are read from the store on every request; nothing to invalidate.)
 */
let stack: Stack;
let second: RunningService;
beforeAll(async () => {
  stack = await startStack('key-revocation', { only: ['management-api'] });
  second = await startService('management-api', { ...stack.env, PUBLIC_BASE_URL: 'http://127.0.0.1:1' });
});
afterAll(async () => {
  await second?.stop();
  await stack?.stop();
});

describe('API keys across management-api instances', () => {
  it('the bootstrap key is an owner key, on every instance', async () => {
    for (const url of [stack.services['management-api']!.url, second.url]) {
      await must(stack.clientAs(stack.apiKey, url).GET('/v1/account/plan'));
    }
  });

  it('a key revoked through one instance is refused by both on the next request', async () => {
    const [a, b] = [stack.services['management-api']!.url, second.url];
    const created = await must(
      stack.clientAs(stack.apiKey, a).POST('/v1/api-keys', { body: { role: 'editor', name: 'short-lived' } }),
    );
    const key = created.secret;
    for (const url of [a, b]) await must(stack.clientAs(key, url).GET('/v1/endpoints'));

    const revoked = await stack
      .clientAs(stack.apiKey, b)
      .DELETE('/v1/api-keys/{keyId}', { params: { path: { keyId: created.id } } });
    expect(revoked.response.status).toBe(204);

    for (const url of [a, b]) {
      const res = await stack.clientAs(key, url).GET('/v1/endpoints');
      expect([url, res.response.status, res.error?.code]).toEqual([url, 401, 'unauthorized']);
    }
    // the secret was never logged by either process
    expect(stack.services['management-api']!.output() + second.output()).not.toContain(key);
  });

  it('the operator gives an account a new owner key with the bootstrap command (--owner-key-for), audited', async () => {
    const { account_id, api_key } = await bootstrapAccount(stack.env, ['--owner-key-for', stack.accountId]);
    expect(account_id).toBe(stack.accountId);
    await must(stack.clientAs(api_key, second.url).GET('/v1/account/plan'));
    const audit = await must(stack.client.GET('/v1/audit', { params: { query: { limit: 1 } } }));
    expect(audit.data[0]).toMatchObject({
      action: 'key_created',
      actor: 'operator',
      details: { role: 'owner', prefix: api_key.slice(0, 7) },
    });
    await expect(bootstrapAccount(stack.env, ['--owner-key-for', 'acc_doesnotexist'])).rejects.toThrow(
      'no account acc_doesnotexist',
    );
  });
});
