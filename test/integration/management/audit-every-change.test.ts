import { managementApiDocument } from '../../../services/management-api/src/openapi/document';
import { must } from '@relay/client';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';
import { modelsOf } from '../../support/store-models';
import { createSmtpTransport } from '@relay/targets';
import { createInvitationMailer } from '../../../services/management-api/src/adapters/invitation-mail';
import { MemberStore } from '../../../services/management-api/src/adapters/member-store';
import { startTestOidcProvider } from '../../support/oidc-provider';
import type { TestOidcProvider } from '../../support/oidc-provider';
import { startTestSmtpServer } from '../../support/smtp-server';
import type { TestSmtpServer } from '../../support/smtp-server';

/*
 * Every change of configuration leaves an audit row saying what changed, who
 * (the key's prefix and name) and from where — and never a secret. The write operations come
 * from the OpenAPI document (POST/PUT/PATCH/DELETE): each must have a case below or be listed in
 * NOT_CHANGES with the reason, so a new write route without an audit row fails this test.
 */

const WRITE_METHODS = ['post', 'put', 'patch', 'delete'] as const;
const writeOperations = Object.entries(managementApiDocument.paths).flatMap(([path, item]) =>
  WRITE_METHODS.filter((m) => (item as Record<string, unknown>)[m]).map((m) => ({
    method: m,
    path,
    id: String((item as Record<string, { operationId: string }>)[m]!.operationId),
  })),
);

/** Write routes that change no configuration: they act on events and deliveries, which have their own record. */
const NOT_CHANGES: Record<string, string> = {
  testEndpoint:
    'sends a sample request through a gateway; it shows in the activity log (the Test group), configuration is unchanged',
  resendActivity: 'redelivers a stored event; the resend is an activity row of its own, configuration is unchanged',
  createBulkRetry:
    'redelivers stored events; the job is listed with who started it (GET /v1/bulk-retries), configuration is unchanged',
  cancelBulkRetry: 'stops such a job; the job records its cancellation, configuration is unchanged',
  previewBulkRetry: 'counts what a bulk retry would queue; reads only, nothing is queued or changed',
  rerunActivity:
    'runs a quarantined request through the gateway again; the re-run is an activity row of its own linked to the original, configuration is unchanged',
  createBulkRerun: 'runs quarantined requests again, each an activity row of its own; configuration is unchanged',
  previewBulkRerun: 'counts the quarantined requests a bulk re-run would run; reads only, nothing is run or changed',
  previewTransformation: 'runs a draft on stored requests in the sandbox; nothing is saved or delivered',
  validateEndpointPayload:
    'checks a payload against the contracts or a draft of them; nothing is saved, delivered or recorded',
};

const SECRETS = [
  'inbound-secret-value-0001',
  'captcha-secret-value-0002',
  'outbound-token-value-0003',
  'rotated-inbound-secret-0004',
  'idp-client-secret-0005',
];

let fx: ManagementFixture;
let actor: { secret: string; prefix: string; name: string };
// members' routes need an identity provider that answers discovery and a mail relay that takes invitations
let idp: TestOidcProvider;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startTestSmtpServer({ security: 'plain' });
  const transport = createSmtpTransport({
    host: '127.0.0.1',
    port: smtp.port,
    security: 'none',
    from: 'relay@relay.example',
    connectionTimeoutMs: 5000,
    greetingTimeoutMs: 5000,
    socketTimeoutMs: 5000,
    maxConnections: 1,
  });
  fx = await startManagement('mgmt-audit-all', {
    mailer: createInvitationMailer({ transport, from: 'relay@relay.example' }),
  });
  idp = await startTestOidcProvider(`${fx.baseUrl}/session/oidc/callback`);
  const created = await must(fx.client.POST('/v1/api-keys', { body: { role: 'owner', name: 'release bot' } }));
  actor = { secret: created.secret, prefix: created.prefix, name: 'release bot' };
});
afterAll(async () => {
  await idp?.close();
  await fx?.close();
  await smtp?.close();
});

/** the typed client with the audited key: setup and the audit reads */
const relay = () => fx.clientAs(actor.secret);
/** the write operation under test, by the document's path as a string (the typed client takes path literals only) */
// raw: each write route of the document by its path string, with the case's body and status
const writeAs = (method: 'post' | 'put' | 'patch' | 'delete', path: string, body?: unknown) =>
  fx.apiAs(actor.secret, method, path, body);
const newEndpoint = async (): Promise<string> =>
  (await must(relay().POST('/v1/endpoints', { body: { name: 'audited' } }))).id;
const newTarget = async (endpointId: string): Promise<string> =>
  (
    await must(
      relay().POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId } },
        body: {
          kind: 'webhook',
          name: 'orders',
          config: { url: 'https://hooks.example.com/in', auth: { type: 'bearer', token: SECRETS[2] } },
        },
      }),
    )
  ).id;
const auditPage = async (query: { endpoint_id?: string; limit?: number }) =>
  must(relay().GET('/v1/audit', { params: { query } }));
const endpointAudit = async (endpointId: string, limit?: number) =>
  must(
    relay().GET('/v1/endpoints/{endpointId}/audit', {
      params: { path: { endpointId }, query: limit === undefined ? {} : { limit } },
    }),
  );

/** an alert rule sending to a target of the account (whose endpoint is not the audited one: no endpoint_id in the row) */
let alertTarget: string | undefined;
const alertTargetId = async (): Promise<string> => (alertTarget ??= await newTarget(await newEndpoint()));
const newAlertRule = async (): Promise<string> =>
  (
    await must(
      relay().POST('/v1/alert-rules', {
        body: { name: 'ops', target_ids: [await alertTargetId()], conditions: [{ kind: 'target_flagged' }] },
      }),
    )
  ).id;
/** a body naming the alert target where it says TARGET, and the test identity provider where it says ISSUER */
const withTarget = async (body: unknown): Promise<unknown> =>
  JSON.parse(
    JSON.stringify(body ?? null)
      .replaceAll('"TARGET"', JSON.stringify(await alertTargetId()))
      .replaceAll('"ISSUER"', JSON.stringify(idp.issuer)),
  ) ?? undefined;
const setProvider = async (): Promise<Record<string, string>> => {
  await must(
    relay().PUT('/v1/account/identity-provider', {
      body: { issuer: idp.issuer, client_id: 'relay', client_secret: 'idp-client-secret-0005' },
    }),
  );
  return {};
};

/** the endpoint (and target) a transformation case acts on, with version 1 of its transformation saved when `saved` */
async function transformationScope(op: 'Endpoint' | 'Target', saved: boolean): Promise<Record<string, string>> {
  const endpointId = await newEndpoint();
  const ids: Record<string, string> =
    op === 'Target' ? { endpointId, targetId: await newTarget(endpointId) } : { endpointId };
  if (saved) {
    const body = { code: '(r) => r' };
    if (op === 'Target')
      await must(
        relay().PUT('/v1/endpoints/{endpointId}/targets/{targetId}/transformation', {
          params: { path: { endpointId, targetId: ids.targetId! } },
          body,
        }),
      );
    else
      await must(relay().PUT('/v1/endpoints/{endpointId}/transformation', { params: { path: { endpointId } }, body }));
  }
  return { ...ids, version: '1' };
}

function transformationCases(op: 'Endpoint' | 'Target'): Record<string, Case> {
  const scope = { scope: op.toLowerCase(), scope_id: expect.stringMatching(op === 'Target' ? /^tg_/ : /^ep_/) };
  return {
    [`save${op}Transformation`]: {
      setup: () => transformationScope(op, false),
      body: { code: '(request) => request' },
      status: 201,
      action: 'transformation_saved',
      details: { ...scope, version: 1 },
    },
    [`restore${op}Transformation`]: {
      setup: () => transformationScope(op, true),
      status: 201,
      action: 'transformation_restored',
      details: { ...scope, version: 2, restored_from: 1 },
    },
    [`remove${op}Transformation`]: {
      setup: () => transformationScope(op, true),
      status: 204,
      action: 'transformation_removed',
      details: scope,
    },
  };
}

interface Case {
  /** what to create first; returns the ids the path needs */
  setup(): Promise<Record<string, string>>;
  body?: unknown;
  status: number;
  action: string;
  details?: Record<string, unknown>;
}

const CASES: Record<string, Case> = {
  createEndpoint: {
    setup: async () => ({}),
    body: {
      name: 'made',
      inbound_auth: { type: 'HMAC', preset: 'github', secrets: [SECRETS[0]] },
      captcha: { provider: 'turnstile', secret: SECRETS[1] },
    },
    status: 201,
    action: 'endpoint_created',
    details: {
      name: 'made',
      fields: ['captcha', 'inbound_auth', 'name'],
      secrets_changed: ['captcha', 'inbound_auth'],
    },
  },
  updateEndpoint: {
    setup: async () => ({ endpointId: await newEndpoint() }),
    body: {
      name: 'renamed',
      rate_limit_per_minute: 30,
      inbound_auth: { type: 'HMAC', preset: 'github', secrets: [SECRETS[3]] },
    },
    status: 200,
    action: 'endpoint_updated',
    details: { fields: ['inbound_auth', 'name', 'rate_limit_per_minute'], secrets_changed: ['inbound_auth'] },
  },
  deleteEndpoint: {
    setup: async () => ({ endpointId: await newEndpoint() }),
    status: 204,
    action: 'endpoint_deleted',
    details: { name: 'audited' },
  },
  pauseEndpoint: { setup: async () => ({ endpointId: await newEndpoint() }), status: 200, action: 'paused' },
  resumeEndpoint: {
    setup: async () => {
      const endpointId = await newEndpoint();
      await must(relay().POST('/v1/endpoints/{endpointId}/pause', { params: { path: { endpointId } } }));
      return { endpointId };
    },
    status: 200,
    action: 'resumed',
  },
  disableEndpoint: { setup: async () => ({ endpointId: await newEndpoint() }), status: 200, action: 'disabled' },
  enableEndpoint: {
    setup: async () => {
      const endpointId = await newEndpoint();
      await must(relay().POST('/v1/endpoints/{endpointId}/disable', { params: { path: { endpointId } } }));
      return { endpointId };
    },
    status: 200,
    action: 'enabled',
  },
  createTarget: {
    setup: async () => ({ endpointId: await newEndpoint() }),
    body: {
      kind: 'webhook',
      name: 'crm',
      config: { url: 'https://hooks.example.com/crm', auth: { type: 'bearer', token: SECRETS[2] } },
    },
    status: 201,
    action: 'target_created',
    details: { target_id: expect.stringMatching(/^tg_/), name: 'crm', kind: 'webhook' },
  },
  updateTarget: {
    setup: async () => {
      const endpointId = await newEndpoint();
      return { endpointId, targetId: await newTarget(endpointId) };
    },
    body: { name: 'orders v2', enabled: false },
    status: 200,
    action: 'target_updated',
    details: { target_id: expect.stringMatching(/^tg_/), name: 'orders v2', fields: ['enabled', 'name'] },
  },
  deleteTarget: {
    setup: async () => {
      const endpointId = await newEndpoint();
      return { endpointId, targetId: await newTarget(endpointId) };
    },
    status: 204,
    action: 'target_deleted',
    details: { target_id: expect.stringMatching(/^tg_/), name: 'orders', kind: 'webhook' },
  },
  clearTargetFlag: {
    setup: async () => {
      const endpointId = await newEndpoint();
      const targetId = await newTarget(endpointId);
      // the deliverers set the flag (a 410 from the destination); here it is set as they do, in the store
      await modelsOf(fx.store).targets.updateOne(
        { _id: targetId },
        { $set: { flagged: { reason: 'gone (410)', at: new Date() } } },
      );
      return { endpointId, targetId };
    },
    status: 200,
    action: 'target_flag_cleared',
    details: { target_id: expect.stringMatching(/^tg_/), name: 'orders' },
  },
  pauseTarget: {
    setup: async () => {
      const endpointId = await newEndpoint();
      return { endpointId, targetId: await newTarget(endpointId) };
    },
    status: 200,
    action: 'target_paused',
    details: { target_id: expect.stringMatching(/^tg_/), name: 'orders' },
  },
  resumeTarget: {
    setup: async () => {
      const endpointId = await newEndpoint();
      const targetId = await newTarget(endpointId);
      await must(
        relay().POST('/v1/endpoints/{endpointId}/targets/{targetId}/pause', {
          params: { path: { endpointId, targetId } },
        }),
      );
      return { endpointId, targetId };
    },
    status: 200,
    action: 'target_resumed',
    details: { target_id: expect.stringMatching(/^tg_/), name: 'orders' },
  },
  createApiKey: {
    setup: async () => ({}),
    body: { role: 'viewer', name: 'wallboard' },
    status: 201,
    action: 'key_created',
    details: { role: 'viewer', prefix: expect.any(String), name: 'wallboard' },
  },
  revokeApiKey: {
    setup: async () => ({ keyId: (await fx.keyWithRole('viewer')).id }),
    status: 204,
    action: 'key_revoked',
    details: { role: 'viewer', prefix: expect.any(String), name: 'viewer key' },
  },
  createAlertRule: {
    setup: async () => ({}),
    body: { name: 'ops', target_ids: ['TARGET'], conditions: [{ kind: 'target_flagged' }] },
    status: 201,
    action: 'alert_rule_created',
    details: { rule_id: expect.stringMatching(/^ar_/), name: 'ops', kinds: ['target_flagged'] },
  },
  replaceAlertRule: {
    setup: async () => ({ ruleId: await newAlertRule() }),
    body: { name: 'ops v2', target_ids: ['TARGET'], conditions: [{ kind: 'quota_nearly_used' }] },
    status: 200,
    action: 'alert_rule_updated',
    details: { rule_id: expect.stringMatching(/^ar_/), name: 'ops v2', kinds: ['quota_nearly_used'] },
  },
  deleteAlertRule: {
    setup: async () => ({ ruleId: await newAlertRule() }),
    status: 204,
    action: 'alert_rule_deleted',
    details: { rule_id: expect.stringMatching(/^ar_/), name: 'ops' },
  },
  testAlertRule: {
    setup: async () => ({ ruleId: await newAlertRule() }),
    status: 202,
    action: 'alert_test_sent',
    details: { rule_id: expect.stringMatching(/^ar_/), name: 'ops', alert_id: expect.stringMatching(/^al_/) },
  },
  ...transformationCases('Endpoint'),
  ...transformationCases('Target'),
  setIdentityProvider: {
    setup: async () => ({}),
    body: { issuer: 'ISSUER', client_id: 'relay', client_secret: 'idp-client-secret-0005' },
    status: 200,
    action: 'identity_provider_set',
    details: {
      issuer: expect.stringMatching(/^http:\/\/127\.0\.0\.1:/),
      client_id: 'relay',
      secrets_changed: ['client_secret'],
    },
  },
  removeIdentityProvider: { setup: setProvider, status: 204, action: 'identity_provider_removed' },
  createInvitation: {
    setup: setProvider,
    body: { email: 'new@example.com', role: 'viewer' },
    status: 201,
    action: 'member_invited',
    details: { invitation_id: expect.stringMatching(/^inv_/), email: 'new@example.com', role: 'viewer' },
  },
  revokeInvitation: {
    setup: async () => {
      await setProvider();
      const inv = await must(
        relay().POST('/v1/members/invitations', { body: { email: 'x@example.com', role: 'editor' } }),
      );
      return { invitationId: inv.id };
    },
    status: 204,
    action: 'invitation_revoked',
    details: { invitation_id: expect.stringMatching(/^inv_/) },
  },
  removeMember: {
    // a member as accepting an invitation stores one (the sign-in itself: members.test.ts)
    setup: async () => {
      await new MemberStore(fx.store).addMember({
        _id: 'mem_audited',
        account_id: fx.accountId,
        identity: 'audited-identity',
        issuer: idp.issuer,
        subject: 'person',
        email: 'person@example.com',
        name: null,
        role: 'editor',
        invited_by: actor.prefix,
        created_at: new Date(),
      });
      return { memberId: 'mem_audited' };
    },
    status: 204,
    action: 'member_removed',
    details: { member_id: 'mem_audited', email: 'person@example.com', role: 'editor' },
  },
  updatePlan: {
    setup: async () => ({}),
    body: { monthly_accepted_events: 5000 },
    status: 200,
    action: 'plan_changed',
    details: { before: expect.any(Object), after: expect.objectContaining({ monthly_accepted_events: 5000 }) },
  },
};

describe('every write route of the OpenAPI document leaves an audit row', () => {
  it('each write operation has a case here or a reason it changes no configuration', () => {
    expect(writeOperations.length).toBeGreaterThan(15);
    const ids = writeOperations.map((o) => o.id);
    expect(ids.filter((id) => !CASES[id] && !NOT_CHANGES[id])).toEqual([]);
    expect(Object.keys(CASES).filter((id) => !ids.includes(id))).toEqual([]);
    expect(Object.keys(NOT_CHANGES).filter((id) => !ids.includes(id))).toEqual([]);
  });

  it.each(
    writeOperations
      .filter((o) => CASES[o.id])
      .map((o) => [`${o.id} (${o.method.toUpperCase()} ${o.path})`, o] as const),
  )('%s', async (_name, o) => {
    const c = CASES[o.id]!;
    const ids = await c.setup();
    const url = o.path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name]!);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const body = await withTarget(c.body);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const since = new Date();
    const res = await writeAs(o.method as 'post' | 'put' | 'patch' | 'delete', url, body);
    expect([res.status, res.body]).toEqual([c.status, expect.anything()]);

    const page = await auditPage({ limit: 5 });
    const rows = page.data.filter((r) => new Date(r.at) >= since);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({
      action: c.action,
      actor: actor.prefix,
      actor_name: actor.name,
      source_ip: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
    });
    if (c.details) expect(row.details).toEqual(c.details);
    if (ids.endpointId) {
      expect(row.endpoint_id).toBe(ids.endpointId);
      // the same row, filtered per endpoint both ways (also after the endpoint was deleted)
      const byAccount = await auditPage({ endpoint_id: ids.endpointId, limit: 1 });
      expect(byAccount.data[0]!.id).toBe(row.id);
      if (o.id !== 'deleteEndpoint') expect((await endpointAudit(ids.endpointId, 1)).data[0]!.id).toBe(row.id);
    }
    for (const secret of [...SECRETS, actor.secret]) expect(JSON.stringify(page)).not.toContain(secret);
  });

  it('a target save names only the fields whose values changed, however many the form sent back', async () => {
    const endpointId = await newEndpoint();
    const targetId = await newTarget(endpointId);
    const path = { endpointId, targetId };
    const shown = await must(relay().GET('/v1/endpoints/{endpointId}/targets/{targetId}', { params: { path } }));
    // what the dashboard's form sends: every field it shows, as shown, with only the limits new
    const form = {
      name: shown.name,
      enabled: shown.enabled,
      retry_schedule_ms: shown.retry_schedule_ms,
      routing: shown.routing,
      breaker: shown.breaker,
      limits: { rate: 5, per: 'minute' as const, max_in_flight: null },
    };
    const since = new Date();
    await must(relay().PATCH('/v1/endpoints/{endpointId}/targets/{targetId}', { params: { path }, body: form }));
    const rows = (await endpointAudit(endpointId)).data.filter((r) => new Date(r.at) >= since);
    expect(rows.map((r) => [r.action, r.details])).toEqual([
      ['target_updated', { target_id: targetId, name: 'orders', fields: ['limits'] }],
    ]);
    // the same form saved again changes nothing: no row
    await must(relay().PATCH('/v1/endpoints/{endpointId}/targets/{targetId}', { params: { path }, body: form }));
    expect((await endpointAudit(endpointId)).data.filter((r) => new Date(r.at) >= since)).toHaveLength(1);
  });

  it('no stored audit row holds a secret', async () => {
    const stored = JSON.stringify(await modelsOf(fx.store).audit.find({ account_id: fx.accountId }).lean());
    for (const secret of SECRETS) expect(stored).not.toContain(secret);
  });

  it('a save that changes nothing writes no row; the per-endpoint filter is bounded and role-checked', async () => {
    const endpointId = await newEndpoint();
    const before = (await endpointAudit(endpointId)).data.length;
    await must(
      relay().PATCH('/v1/endpoints/{endpointId}', { params: { path: { endpointId } }, body: { name: 'audited' } }),
    );
    expect((await endpointAudit(endpointId)).data).toHaveLength(before);
    expect((await relay().GET('/v1/audit', { params: { query: { limit: 201 } } })).response.status).toBe(400);
    const viewer = fx.clientAs((await fx.keyWithRole('viewer')).secret);
    expect((await viewer.GET('/v1/audit', { params: { query: { endpoint_id: endpointId } } })).response.status).toBe(
      403,
    );
    expect(
      (await viewer.GET('/v1/endpoints/{endpointId}/audit', { params: { path: { endpointId } } })).response.status,
    ).toBe(200);
    // another account's endpoint id finds nothing
    const other = fx.clientAs((await fx.newAccount()).apiKey);
    expect((await must(other.GET('/v1/audit', { params: { query: { endpoint_id: endpointId } } }))).data).toEqual([]);
  });
});
