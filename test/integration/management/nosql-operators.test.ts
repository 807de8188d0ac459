import { must } from '@relay/client';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/**
 * Values shaped like MongoDB query operators never reach a query as operators: the query string
 * is parsed flat (no `a[$ne]=` objects) and every body field is checked for its type first.
 */
let fx: ManagementFixture;
let endpointId: string;
let other: { accountId: string; apiKey: string };
beforeAll(async () => {
  fx = await startManagement('mgmt-nosql');
  other = await fx.newAccount();
  endpointId = (await must(fx.client.POST('/v1/endpoints', { body: { name: 'mine' } }))).id;
});
afterAll(async () => {
  await fx?.close();
});

describe('MongoDB operators in requests are data, never operators', () => {
  it.each([
    ['name', { $gt: '' }],
    ['name', { $ne: null }],
    ['methods', { $in: ['POST'] }],
    ['payload_format', { $regex: '.*' }],
  ])('a body field %s given as %j is a 400 naming the field', async (field, value) => {
    // raw: a MongoDB operator where the document wants a value
    const res = await fx.api('post', '/v1/endpoints', { name: 'x', [field]: value });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });

  it('an operator in a PATCH body changes nothing', async () => {
    // raw: a MongoDB operator where the document wants a name
    const res = await fx.api('patch', `/v1/endpoints/${endpointId}`, {
      name: { $set: { account_id: other.accountId } },
    });
    expect(res.status).toBe(400);
    expect(await must(fx.client.GET('/v1/endpoints/{endpointId}', { params: { path: { endpointId } } }))).toMatchObject(
      { id: endpointId, name: 'mine' },
    );
  });

  it('bracketed operator keys in the query string are ignored, not parsed into a filter', async () => {
    for (const query of ['endpoint_id[$ne]=x', 'endpoint_id[$gt]=', 'status[$ne]=all']) {
      // raw: bracketed operator keys in the query string, which the typed client cannot write
      const res = await fx.api('get', `/v1/activity?${query}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    }
  });

  it('an operator-shaped id in the path is just an unknown id', async () => {
    const res = await fx.client.GET('/v1/endpoints/{endpointId}', { params: { path: { endpointId: '{"$ne":null}' } } });
    expect(res.response.status).toBe(404);
  });
});
