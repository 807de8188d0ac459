import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/**
 * Saving a target through the management API (docs/management-api.md): a setting the
 * deliverers could never send is refused at save time with 400 validation_failed and a
 * `{field, message}` per problem — never saved with 201 to fail every delivery later.
 */
let m: ManagementFixture;
let endpointId: string;

beforeAll(async () => {
  m = await startManagement('target-validation');
  endpointId = (await m.api('post', '/v1/endpoints', { name: 'targets' })).body.id;
});
afterAll(() => m.close());

const create = (body: Record<string, unknown>) => m.api('post', `/v1/endpoints/${endpointId}/targets`, body);
const targetCount = async () => (await m.api('get', `/v1/endpoints/${endpointId}/targets`)).body.data.length;

describe('issue 9, item 8: header values are checked against what Node\'s HTTP client sends', () => {
  it.each([
    ['€ in a custom header value', { custom_headers: [{ name: 'X-Price', value: 'costs €5' }] }, 'config.custom_headers[0].value'],
    ['U+2028 in a Bearer token', { auth: { type: 'bearer', token: 'abc\u2028def' } }, 'config.auth.token'],
    ['U+2028 in an API key', { auth: { type: 'api_key', header: 'X-Api-Key', key: 'key\u2028' } }, 'config.auth.key'],
  ])('%s: 400 validation_failed naming the field, nothing saved, the value not echoed', async (_n, config, field) => {
    const before = await targetCount();
    const res = await create({ kind: 'webhook', name: 'w', config: { url: 'https://hooks.example.com/in', ...config } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ field, message: expect.stringMatching(/contains U\+(20AC|2028) at character \d+/) }] });
    expect(JSON.stringify(res.body)).not.toMatch(/costs|abc|key\u2028/);
    expect(await targetCount()).toBe(before);
  });
});
