import { createHash } from 'node:crypto';
import { must } from '@relay/client';
import { managementApiDocument } from '../../../services/management-api/src/openapi/document';
import { eventually } from '../../support/infra';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';
import { modelsOf } from '../../support/store-models';

/**
 * API keys with roles (docs/management-api.md "Roles"). Every operation is
 * tried with a key of every role: below the role the document names it is 403 `forbidden`,
 * from that role up it is not — so the document and the routes cannot disagree. Ids in paths
 * are ones that do not exist: an allowed key gets 404 there and nothing is changed.
 */
const ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
type Role = (typeof ROLES)[number];

let fx: ManagementFixture;
const keys = {} as Record<Role, string>;
beforeAll(async () => {
  fx = await startManagement('mgmt-roles');
  keys.owner = fx.apiKey;
  for (const role of ['viewer', 'editor', 'admin'] as const) keys[role] = (await fx.keyWithRole(role)).secret;
});
afterAll(async () => {
  await fx?.close();
});

/** A body each operation accepts, so an allowed key is not stopped by validation instead. */
const BODIES: Record<string, unknown> = {
  createEndpoint: { name: 'made by a role test' },
  updateEndpoint: {},
  createTarget: { kind: 'webhook', name: 'w', config: { url: 'https://hooks.example.com/in' } },
  updateTarget: {},
  createApiKey: { role: 'viewer' },
  updatePlan: {},
  // an endpoint that does not exist: 404 for the allowed keys, no job started
  createBulkRetry: { endpoint_id: 'ep_doesnotexist' },
  validateEndpointPayload: { body: {} },
};

const operations = Object.entries(managementApiDocument.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, op]) => op['x-relay-role'] !== undefined)
    .map(([method, op]) => ({
      method: method as 'get' | 'post' | 'patch' | 'delete',
      path,
      id: String(op.operationId),
      least: op['x-relay-role'] as Role,
    })),
);

describe('every operation refuses keys below the role the document names (403), and serves it and above', () => {
  it.each(operations)('$id ($method $path) needs $least', async ({ method, path, id, least }) => {
    const concrete = path.replace(/\{(\w+)\}/g, (_m, name: string) => `${name.replace(/Id$/, '')}_doesnotexist`);
    for (const role of ROLES) {
      // raw: every operation of the document by its path pattern, the 403 and its body per role
      const res = await fx.apiAs(keys[role], method, concrete, BODIES[id]);
      const below = ROLES.indexOf(role) < ROLES.indexOf(least);
      expect([role, res.status === 403]).toEqual([role, below]);
      if (below)
        expect(res.body).toEqual({
          code: 'forbidden',
          message: `This API key's role (${role}) cannot do this; it needs ${least} or higher.`,
        });
      else expect([role, res.status]).not.toEqual([role, 401]);
    }
  });
});

describe('what each role may do, on a real endpoint', () => {
  let endpointId: string;
  beforeAll(async () => {
    const created = await must(
      fx.client.POST('/v1/endpoints', {
        body: { name: 'shared', inbound_auth: { type: 'BEARER', tokens: ['a-long-bearer-token-0001'] } },
      }),
    );
    endpointId = created.id;
    await must(
      fx.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId } },
        body: {
          kind: 'webhook',
          name: 'w',
          config: { url: 'https://hooks.example.com/in', auth: { type: 'bearer', token: 'outbound-token-0001' } },
        },
      }),
    );
  });

  it('a viewer reads endpoints, targets, their audit history and the activity log, but changes nothing', async () => {
    for (const path of [
      '/v1/endpoints',
      `/v1/endpoints/${endpointId}`,
      `/v1/endpoints/${endpointId}/targets`,
      `/v1/endpoints/${endpointId}/audit`,
      '/v1/activity',
    ]) {
      // raw: the status of each route for a viewer key
      expect([path, (await fx.apiAs(keys.viewer, 'get', path)).status]).toEqual([path, 200]);
    }
    const changes: Array<['post' | 'patch' | 'delete', string, unknown]> = [
      ['patch', `/v1/endpoints/${endpointId}`, { name: 'renamed by a viewer' }],
      ['post', `/v1/endpoints/${endpointId}/pause`, undefined],
      ['delete', `/v1/endpoints/${endpointId}`, undefined],
      ['post', '/v1/endpoints', { name: 'new' }],
      [
        'post',
        `/v1/endpoints/${endpointId}/targets`,
        { kind: 'webhook', name: 'x', config: { url: 'https://hooks.example.com/x' } },
      ],
    ];
    // raw: the 403 of each change for a viewer key
    for (const [method, path, body] of changes)
      expect([method, path, (await fx.apiAs(keys.viewer, method, path, body)).status]).toEqual([method, path, 403]);
    expect(await must(fx.client.GET('/v1/endpoints/{endpointId}', { params: { path: { endpointId } } }))).toMatchObject(
      { name: 'shared', paused: false, revision: 1 },
    );
  });

  it('a viewer never sees a secret, not even the last four characters an editor sees', async () => {
    const path = { params: { path: { endpointId } } };
    const asEditor = await must(fx.clientAs(keys.editor).GET('/v1/endpoints/{endpointId}', path));
    expect(asEditor.inbound_auth).toMatchObject({ tokens: [{ set: true, last4: '0001' }] });
    const asViewer = await must(fx.clientAs(keys.viewer).GET('/v1/endpoints/{endpointId}', path));
    expect(asViewer.inbound_auth).toMatchObject({ tokens: [{ set: true }] });
    expect(JSON.stringify(asViewer.inbound_auth)).not.toContain('last4');
    const targets = await must(fx.clientAs(keys.viewer).GET('/v1/endpoints/{endpointId}/targets', path));
    expect(targets.data[0]!.config.auth).toEqual({ type: 'bearer', token: '[redacted]' });
    expect(JSON.stringify([asViewer, targets])).not.toMatch(/0001/);
  });

  it('an editor changes endpoints and targets', async () => {
    const editor = fx.clientAs(keys.editor);
    expect(
      await must(
        editor.PATCH('/v1/endpoints/{endpointId}', {
          params: { path: { endpointId } },
          body: { rate_limit_per_minute: 30 },
        }),
      ),
    ).toMatchObject({ rate_limit_per_minute: 30 });
    const target = await editor.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId } },
      body: { kind: 'webhook', name: 'second', config: { url: 'https://hooks.example.com/2' } },
    });
    expect(target.response.status).toBe(201);
    const deleted = await editor.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}', {
      params: { path: { endpointId, targetId: target.data!.id } },
    });
    expect(deleted.response.status).toBe(204);
  });

  it('spec "Other interfaces": GET /billing/usage is readable by owner and admin keys, 403 for editor and viewer', async () => {
    for (const path of ['/billing/usage', '/v1/billing/usage']) {
      // raw: the spec's unversioned path beside /v1, the status per role
      const statuses = Object.fromEntries(
        await Promise.all(ROLES.map(async (role) => [role, (await fx.apiAs(keys[role], 'get', path)).status] as const)),
      );
      expect([path, statuses]).toEqual([path, { viewer: 403, editor: 403, admin: 200, owner: 200 }]);
    }
  });

  it('the actor in the audit history is the prefix of the key that acted', async () => {
    await must(fx.clientAs(keys.editor).POST('/v1/endpoints/{endpointId}/pause', { params: { path: { endpointId } } }));
    const audit = await must(
      fx.clientAs(keys.viewer).GET('/v1/endpoints/{endpointId}/audit', { params: { path: { endpointId } } }),
    );
    expect(audit.data[0]).toMatchObject({ action: 'paused', actor: keys.editor.slice(0, 7) });
  });

  it('a key stored before roles existed (no role field) is an owner key', async () => {
    const secret = 'rk_legacyKeyWithoutAnyRoleField000000001';
    await modelsOf(fx.store).apiKeys.collection.insertOne({
      _id: 'key_legacy',
      account_id: fx.accountId,
      digest: createHash('sha256').update(secret).digest('hex'),
      prefix: secret.slice(0, 7),
      created_at: new Date(),
    } as never);
    await must(fx.clientAs(secret).GET('/v1/account/plan'));
    const listed = await must(fx.client.GET('/v1/api-keys'));
    expect(listed.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'key_legacy', role: 'owner', name: null })]),
    );
    // its use is recorded like any key's (written after the answer, so read until it is there)
    await eventually(
      async () => (await modelsOf(fx.store).apiKeys.findById('key_legacy').lean())?.last_used_at,
      5000,
      'the legacy key’s last use',
    );
  });
});
