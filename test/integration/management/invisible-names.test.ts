import { must } from '@relay/client';
import { managementApiDocument } from '../../../services/management-api/src/openapi/document';
import { NAME_PATTERN } from '../../../services/management-api/src/openapi/kit';
import type { Schema } from '../../../services/management-api/src/openapi/kit';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/*
 * Names and labels refuse control and invisible format characters (Unicode Cc, Cf) with a 400
 * naming the field, on every operation whose body carries one: the operations are read from the
 * OpenAPI document (every body property with the name pattern), and each must have a case below.
 */
let fx: ManagementFixture;
const ids: Record<string, string> = {};
beforeAll(async () => {
  fx = await startManagement('mgmt-names');
  ids.endpointId = (await must(fx.client.POST('/v1/endpoints', { body: { name: 'named' } }))).id;
  ids.targetId = (
    await must(
      fx.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId: ids.endpointId } },
        body: { kind: 'webhook', name: 'hook', config: { url: 'https://receiver.example/hook' } },
      }),
    )
  ).id;
  ids.ruleId = (
    await must(
      fx.client.POST('/v1/alert-rules', {
        body: { name: 'ops', target_ids: [ids.targetId], conditions: [{ kind: 'target_flagged' }] },
      }),
    )
  ).id;
});
afterAll(async () => {
  await fx?.close();
});

const schemas = (managementApiDocument as { components: { schemas: Record<string, Schema> } }).components.schemas;
const resolve = (s: Schema): Schema =>
  typeof s.$ref === 'string' ? resolve(schemas[String(s.$ref).split('/').pop()!]!) : s;

/** Body fields (top level, through `$ref`, `oneOf` and `allOf`) that hold a name. */
function nameFields(schema: Schema): string[] {
  const s = resolve(schema);
  const nested = [...((s.oneOf as Schema[]) ?? []), ...((s.allOf as Schema[]) ?? [])].flatMap(nameFields);
  const own = Object.entries((s.properties as Record<string, Schema>) ?? {})
    .filter(([, p]) => resolve(p).pattern === NAME_PATTERN)
    .map(([k]) => k);
  return [...new Set([...own, ...nested])];
}

const documented = Object.entries(managementApiDocument.paths).flatMap(([path, item]) =>
  Object.entries(item).flatMap(([method, op]) => {
    const body = (op as { requestBody?: { content?: Record<string, { schema: Schema }> } }).requestBody?.content?.[
      'application/json'
    ]?.schema;
    return body ? nameFields(body).map((field) => `${method.toUpperCase()} ${path} ${field}`) : [];
  }),
);

type Method = 'post' | 'put' | 'patch';
/** A valid body for each operation, its name replaced by `name`. */
const CASES: Record<string, (name: string) => { method: Method; path: string; body: object }> = {
  'POST /v1/endpoints name': (name) => ({ method: 'post', path: '/v1/endpoints', body: { name } }),
  'PATCH /v1/endpoints/{endpointId} name': (name) => ({
    method: 'patch',
    path: `/v1/endpoints/${ids.endpointId}`,
    body: { name },
  }),
  'POST /v1/endpoints/{endpointId}/targets name': (name) => ({
    method: 'post',
    path: `/v1/endpoints/${ids.endpointId}/targets`,
    body: { kind: 'webhook', name, config: { url: 'https://receiver.example/hook' } },
  }),
  'PATCH /v1/endpoints/{endpointId}/targets/{targetId} name': (name) => ({
    method: 'patch',
    path: `/v1/endpoints/${ids.endpointId}/targets/${ids.targetId}`,
    body: { name },
  }),
  'POST /v1/api-keys name': (name) => ({ method: 'post', path: '/v1/api-keys', body: { role: 'viewer', name } }),
  'POST /v1/alert-rules name': (name) => ({
    method: 'post',
    path: '/v1/alert-rules',
    body: { name, target_ids: [ids.targetId], conditions: [{ kind: 'target_flagged' }] },
  }),
  'PUT /v1/alert-rules/{ruleId} name': (name) => ({
    method: 'put',
    path: `/v1/alert-rules/${ids.ruleId}`,
    body: { name, target_ids: [ids.targetId], conditions: [{ kind: 'target_flagged' }] },
  }),
  'PATCH /v1/account/plan name': (name) => ({ method: 'patch', path: '/v1/account/plan', body: { name } }),
};

it('every operation whose body carries a name has a case here', () => {
  expect(documented.sort()).toEqual(Object.keys(CASES).sort());
});

describe.each(Object.keys(CASES))('%s', (operation) => {
  it.each([
    ['U+202E (right-to-left override)', 'invoice\u202Efdp.exe'],
    ['U+200B (zero width space)', 'ops\u200B'],
    ['U+2066 (left-to-right isolate)', '\u2066admin\u2069'],
    ['ESC (a control character)', 'red\u001b[31m'],
  ])('%s → 400 naming the field; nothing changed', async (_what, name) => {
    const { method, path, body } = CASES[operation]!(name);
    // raw: the refusal's status and body, which the typed client would turn into a thrown error
    const res = await fx.api(method, path, body);
    expect([res.status, res.body.code]).toEqual([400, 'validation_failed']);
    expect(res.body.errors).toEqual([
      { field: 'name', message: expect.stringContaining('invisible format characters') },
    ]);
  });

  it('a name of any script without such characters is accepted', async () => {
    const { method, path, body } = CASES[operation]!('Zoë 東京 🚀');
    // raw: the same request as above, accepted
    const res = await fx.api(method, path, body);
    expect(res.status).toBeLessThan(300);
  });
});
