import { must } from '@relay/client';
import type { EndpointCreate, EndpointPatch } from '@relay/client';
import { updateEndpoint } from '../../../services/management-api/src/adapters/endpoint-store';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

let fx: ManagementFixture;
beforeAll(async () => {
  fx = await startManagement('mgmt-settings');
});
afterAll(async () => {
  await fx?.close();
});

const LONG_KEY = 'key_0123456789abcdefWXYZ';

const at = (endpointId: string) => ({ params: { path: { endpointId } } });
const create = (body: EndpointCreate) => must(fx.client.POST('/v1/endpoints', { body }));
const patch = (endpointId: string, body: EndpointPatch) =>
  fx.client.PATCH('/v1/endpoints/{endpointId}', { ...at(endpointId), body });
const read = (endpointId: string) => must(fx.client.GET('/v1/endpoints/{endpointId}', at(endpointId)));

/**
 * Spec "Resources / Endpoint", one row per setting: a value that is saved and read back, and a
 * value refused with 400 validation_failed naming the field. `base` is the endpoint the row
 * starts from (created with just a name unless given).
 */
const SETTINGS: Array<{
  setting: string;
  base?: Partial<EndpointCreate>;
  good: EndpointPatch;
  shown: Record<string, unknown>;
  bad: Record<string, unknown>;
  field: string;
}> = [
  { setting: 'name', good: { name: 'renamed' }, shown: { name: 'renamed' }, bad: { name: '' }, field: 'name' },
  {
    setting: 'methods',
    good: { methods: ['post', 'PUT'] },
    shown: { methods: ['POST', 'PUT'] },
    bad: { methods: ['FETCH'] },
    field: 'methods',
  },
  {
    setting: 'methods: GET/HEAD only with the bodyless formats',
    good: { methods: ['GET', 'HEAD'], payload_format: 'none' },
    shown: { methods: ['GET', 'HEAD'] },
    bad: { methods: ['GET'] },
    field: 'methods',
  },
  {
    setting: 'payload format',
    good: { payload_format: 'xml' },
    shown: { payload_format: 'xml' },
    bad: { payload_format: 'yaml' },
    field: 'payload_format',
  },
  {
    setting: 'payload format: plain text',
    good: { payload_format: 'text' },
    shown: { payload_format: 'text' },
    bad: { payload_format: 'multipart' },
    field: 'payload_format',
  },
  {
    setting: 'payload format: Query Parameters with GET',
    good: { payload_format: 'query', methods: ['GET'] },
    shown: { payload_format: 'query', methods: ['GET'] },
    bad: { payload_format: 'json', methods: ['GET'] },
    field: 'methods',
  },
  {
    setting: 'query parameter name and its required switch',
    good: { payload_format: 'query_base64_json', query_param_name: 'data+x&y', query_param_required: false },
    shown: { payload_format: 'query_base64_json', query_param_name: 'data+x&y', query_param_required: false },
    bad: { payload_format: 'query_base64_json', query_param_name: 'a#b' },
    field: 'query_param_name',
  },
  {
    setting: 'query parameter name: required for Base64 JSON',
    good: { payload_format: 'query_base64_json', query_param_name: 'p' },
    shown: { query_param_required: true },
    bad: { payload_format: 'query_base64_json' },
    field: 'query_param_name',
  },
  {
    setting: 'query parameter name: at most 255 characters',
    good: { payload_format: 'query_base64_json', query_param_name: 'n'.repeat(255) },
    shown: { query_param_name: 'n'.repeat(255) },
    bad: { payload_format: 'query_base64_json', query_param_name: 'n'.repeat(256) },
    field: 'query_param_name',
  },
  {
    setting: 'query parameter name: refused for other formats',
    base: { payload_format: 'form' },
    good: { payload_format: 'json' },
    shown: { query_param_name: null },
    bad: { query_param_name: 'data' },
    field: 'query_param_name',
  },
  {
    setting: 'inbound auth API_KEY',
    good: { inbound_auth: { type: 'API_KEY', header: 'X-Api-Key', keys: [LONG_KEY] } },
    shown: { inbound_auth: { type: 'API_KEY', header: 'X-Api-Key', keys: [{ set: true, last4: 'WXYZ' }] } },
    bad: { inbound_auth: { type: 'API_KEY', header: 'Content-Type', keys: ['k'] } },
    field: 'inbound_auth.api_key.header',
  },
  {
    setting: 'inbound auth HMAC preset',
    good: {
      inbound_auth: { type: 'HMAC', preset: 'stripe', secrets: ['whsec_stripe_secret_0001'], tolerance_seconds: 600 },
    },
    shown: {
      inbound_auth: { type: 'HMAC', preset: 'stripe', secrets: [{ set: true, last4: '0001' }], tolerance_seconds: 600 },
    },
    bad: { inbound_auth: { type: 'HMAC', preset: 'github', secrets: ['s'], tolerance_seconds: 60 } },
    field: 'inbound_auth.hmac.tolerance_seconds',
  },
  {
    setting: 'required headers',
    good: { required_headers: [{ name: 'X-Tenant', value: 'acme' }, { name: 'X-Trace' }] },
    shown: { required_headers: [{ name: 'X-Tenant', value: 'acme' }, { name: 'X-Trace' }] },
    bad: { required_headers: [{ name: 'X-Ok' }, { name: 'bad header' }] },
    field: 'required_headers[1].name',
  },
  {
    setting: 'body filters',
    good: {
      body_filters: [
        { kind: 'contains', value: 'order' },
        { kind: 'not_regex', pattern: '^\\s*$', case_insensitive: true },
      ],
    },
    shown: {
      body_filters: [
        { kind: 'contains', value: 'order' },
        { kind: 'not_regex', pattern: '^\\s*$', case_insensitive: true },
      ],
    },
    bad: {
      body_filters: [
        { kind: 'contains', value: 'a' },
        { kind: 'regex', pattern: '(a)\\1' },
      ],
    },
    field: 'body_filters[1].pattern',
  },
  {
    setting: 'field validation rules',
    good: {
      field_rules: [
        { path: 'order.id', required: true, type: 'integer' },
        { path: 'email', pattern: '@' },
      ],
    },
    shown: {
      field_rules: [
        { path: 'order.id', required: true, type: 'integer' },
        { path: 'email', pattern: '@' },
      ],
    },
    bad: { field_rules: [{ path: 'order..id', required: true }] },
    field: 'field_rules[0].path',
  },
  {
    setting: 'payload contracts (docs/contracts.md)',
    good: {
      contracts: {
        event_type: { from: 'header', header: 'X-GitHub-Event' },
        mode: 'refuse',
        schemas: [{ event_type: 'push', schema: '{"required":["ref"],"$defs":{"sha":{"type":"string"}}}' }],
      },
    },
    shown: {
      contracts: {
        event_type: { from: 'header', header: 'x-github-event' },
        mode: 'refuse',
        schemas: [{ event_type: 'push', schema: '{"required":["ref"],"$defs":{"sha":{"type":"string"}}}' }],
      },
    },
    bad: {
      contracts: {
        event_type: { from: 'path', path: 'type' },
        mode: 'refuse',
        schemas: [{ event_type: '*', schema: '{"properties":{"a":{"pattern":"(?<=x)a"}}}' }],
      },
    },
    field: 'contracts.schemas[0].schema',
  },
  {
    setting: 'payload contracts: only where the payload has fields',
    base: { payload_format: 'form' },
    good: {
      contracts: {
        event_type: { from: 'path', path: 'kind' },
        mode: 'mark',
        schemas: [{ event_type: '*', schema: 'true' }],
      },
    },
    shown: {
      contracts: {
        event_type: { from: 'path', path: 'kind' },
        mode: 'mark',
        schemas: [{ event_type: '*', schema: 'true' }],
      },
    },
    bad: {
      payload_format: 'none',
      contracts: {
        event_type: { from: 'path', path: 'type' },
        mode: 'mark',
        schemas: [{ event_type: '*', schema: 'true' }],
      },
    },
    field: 'contracts',
  },
  {
    setting: 'IP allow and deny lists (v4 and v6 CIDR)',
    good: { ip_access: { allow: ['203.0.113.0/24', '2001:db8::/32'], deny: ['203.0.113.7', '2001:db8::1/128'] } },
    shown: { ip_access: { allow: ['203.0.113.0/24', '2001:db8::/32'], deny: ['203.0.113.7', '2001:db8::1/128'] } },
    bad: { ip_access: { allow: ['10.0.0.0/8'], deny: ['2001:db8::/129'] } },
    field: 'ip_access.deny[0]',
  },
  {
    setting: 'captcha',
    good: { captcha: { provider: 'turnstile', secret: '0x4AAAAAAAcaptchasecret' } },
    shown: {
      captcha: {
        provider: 'turnstile',
        secret: { set: true },
        verify_url: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
        field: 'cf-turnstile-response',
      },
    },
    bad: { captcha: { provider: 'turnstile', secret: 's', verify_url: 'http://verify.example' } },
    field: 'captcha.verify_url',
  },
  {
    setting: 'captcha: only with JSON, form or XML',
    base: { payload_format: 'form' },
    good: { captcha: { provider: 'hcaptcha', secret: 's1' } },
    shown: { captcha: { provider: 'hcaptcha' } },
    bad: { payload_format: 'query', captcha: { provider: 'hcaptcha', secret: 's1' } },
    field: 'captcha',
  },
  {
    setting: 'requests per minute',
    good: { rate_limit_per_minute: 120 },
    shown: { rate_limit_per_minute: 120 },
    bad: { rate_limit_per_minute: 0 },
    field: 'rate_limit_per_minute',
  },
  {
    setting: 'requests per minute: null is the default',
    base: { rate_limit_per_minute: 5 },
    good: { rate_limit_per_minute: null },
    shown: { rate_limit_per_minute: null },
    bad: { rate_limit_per_minute: 1.5 },
    field: 'rate_limit_per_minute',
  },
  {
    setting: 'enabled',
    good: { enabled: false },
    shown: { enabled: false, availability: { state: 'disabled' } },
    bad: { enabled: 'no' },
    field: 'enabled',
  },
  {
    setting: 'paused',
    good: { paused: true },
    shown: { paused: true, availability: { state: 'paused', paused_by: 'manual', resumes_at: null } },
    bad: { paused: 1 },
    field: 'paused',
  },
  {
    setting: 'maintenance windows',
    good: { maintenance_windows: [{ starts_at: '2030-01-01T02:00:00Z', ends_at: '2030-01-01T04:00:00+01:00' }] },
    shown: {
      maintenance_windows: [{ starts_at: '2030-01-01T02:00:00Z', ends_at: '2030-01-01T04:00:00+01:00' }],
      availability: { state: 'enabled' },
    },
    bad: { maintenance_windows: [{ starts_at: '2030-01-01T02:00:00Z', ends_at: '2030-01-01T01:00:00Z' }] },
    field: 'maintenance_windows[0].ends_at',
  },
];

describe.each(SETTINGS)('endpoint setting: $setting', ({ base, good, shown, bad, field }) => {
  it('is saved on create and on update, and read back', async () => {
    const created = await fx.client.POST('/v1/endpoints', { body: { name: 'e', ...base, ...good } });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject(shown);

    const plain = await create({ name: 'e', ...base });
    const patched = await must(patch(plain.id, good));
    expect(patched).toMatchObject({ ...shown, revision: 2 });
    expect(await read(plain.id)).toMatchObject(shown);
  });

  it(`is refused with 400 naming ${field}, on create and on update, and nothing changes`, async () => {
    // raw: the table's refused values, several of which the request types cannot hold ('yaml', 'no', 1)
    const created = await fx.api('post', '/v1/endpoints', { name: 'e', ...base, ...bad });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ field })] });

    const plain = await create({ name: 'e', ...base });
    // raw: the same refused values, on update
    const patched = await fx.api('patch', `/v1/endpoints/${plain.id}`, bad);
    expect(patched.status).toBe(400);
    expect(patched.body.code).toBe('validation_failed');
    expect(patched.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(patched.body.message).toContain(field);
    expect((await read(plain.id)).revision).toBe(1);
  });
});

describe('endpoint settings: the request as a whole', () => {
  it('create applies the defaults and shows the ingest URL', async () => {
    const res = await create({ name: 'orders' });
    expect(res).toEqual({
      id: expect.stringMatching(/^ep_/),
      name: 'orders',
      ingest_url: `https://relay.example/relay/${res.id}`,
      enabled: true,
      paused: false,
      availability: { state: 'enabled' },
      methods: ['POST'],
      payload_format: 'json',
      query_param_name: null,
      query_param_required: true,
      inbound_auth: { type: 'NONE' },
      required_headers: [],
      body_filters: [],
      field_rules: [],
      contracts: null,
      ip_access: { allow: [], deny: [] },
      captcha: null,
      rate_limit_per_minute: null,
      maintenance_windows: [],
      revision: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('refuses unknown and read-only fields by name, and reports every problem at once', async () => {
    const created = await create({ name: 'e' });
    // raw: an unknown and a read-only field, which the request type cannot hold
    const res = await fx.api('patch', `/v1/endpoints/${created.id}`, {
      colour: 'red',
      revision: 7,
      methods: [],
      rate_limit_per_minute: -1,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'colour', message: 'is not a known field' },
        { field: 'revision', message: 'is read-only' },
        expect.objectContaining({ field: 'methods' }),
        expect.objectContaining({ field: 'rate_limit_per_minute' }),
      ]),
    );
  });

  it('a body that is not a JSON object, or not JSON, is a 400', async () => {
    const created = await create({ name: 'e' });
    // raw: a JSON array as the body
    const list = await fx.api('patch', `/v1/endpoints/${created.id}`, [1, 2]);
    expect(list.body).toMatchObject({ code: 'validation_failed', errors: [{ field: '(body)' }] });
    // raw: a body that is not JSON
    const broken = await fx.api('post', '/v1/endpoints').set('content-type', 'application/json').send('{"name":');
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe('malformed_json');
  });

  it('switching the format away from Base64 JSON clears the parameter settings', async () => {
    const created = await create({
      name: 'e',
      methods: ['GET'],
      payload_format: 'query_base64_json',
      query_param_name: 'd',
      query_param_required: false,
    });
    const res = await must(patch(created.id, { payload_format: 'query' }));
    expect(res).toMatchObject({ payload_format: 'query', query_param_name: null, query_param_required: true });
  });

  it('an empty PATCH, or one that sends the stored values, changes nothing and keeps the revision', async () => {
    const created = await create({ name: 'e', methods: ['POST', 'PUT'] });
    for (const body of [{}, { name: 'e', methods: ['put', 'post', 'PUT'].reverse(), enabled: true }]) {
      const res = await must(patch(created.id, body));
      expect(res.revision).toBe(1);
    }
  });

  it('another account cannot read, change or delete the endpoint (404)', async () => {
    const created = await create({ name: 'mine' });
    const other = fx.clientAs((await fx.newAccount()).apiKey);
    const mine = at(created.id);
    const answers = [
      await other.GET('/v1/endpoints/{endpointId}', mine),
      await other.PATCH('/v1/endpoints/{endpointId}', { ...mine, body: { name: 'theirs' } }),
      await other.DELETE('/v1/endpoints/{endpointId}', mine),
      await other.POST('/v1/endpoints/{endpointId}/pause', mine),
      await other.GET('/v1/endpoints/{endpointId}/audit', mine),
    ];
    expect(answers.map((a) => a.response.status)).toEqual([404, 404, 404, 404, 404]);
    expect(await read(created.id)).toMatchObject({ name: 'mine', paused: false, revision: 1 });
  });

  it('every change bumps the revision and is announced to the gateways; delete too', async () => {
    const { id } = await create({ name: 'e' });
    await must(patch(id, { rate_limit_per_minute: 10 }));
    await must(patch(id, { required_headers: [{ name: 'X-A' }] }));
    await must(fx.client.POST('/v1/endpoints/{endpointId}/pause', at(id)));
    expect((await read(id)).revision).toBe(4);
    expect((await fx.client.DELETE('/v1/endpoints/{endpointId}', at(id))).response.status).toBe(204);
    expect((await fx.client.GET('/v1/endpoints/{endpointId}', at(id))).response.status).toBe(404);
    await new Promise((r) => setTimeout(r, 200));
    expect(fx.announced.filter((a) => a === `endpoint ${id}`)).toHaveLength(4);
  });

  it('a save validated against an older revision is not applied (the route then answers 409 conflict)', async () => {
    const created = await create({ name: 'e' });
    expect(await updateEndpoint(fx.store, created.id, 1, { name: 'first' })).toBe(true);
    expect(await updateEndpoint(fx.store, created.id, 1, { name: 'second' })).toBe(false);
    expect(await read(created.id)).toMatchObject({ name: 'first', revision: 2 });
  });
});
