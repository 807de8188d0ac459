import request from 'supertest';
import { must } from '@relay/client';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

let fx: ManagementFixture;
let routes: Array<[string, string]>;
beforeAll(async () => {
  fx = await startManagement('mgmt-auth');
  const ep = (await must(fx.client.POST('/v1/endpoints', { body: { name: 'e' } }))).id;
  routes = [
    ['get', '/v1/endpoints'],
    ['post', '/v1/endpoints'],
    ['get', `/v1/endpoints/${ep}`],
    ['patch', `/v1/endpoints/${ep}`],
    ['delete', `/v1/endpoints/${ep}`],
    ...['pause', 'resume', 'enable', 'disable'].map((a): [string, string] => ['post', `/v1/endpoints/${ep}/${a}`]),
    ['get', `/v1/endpoints/${ep}/audit`],
    ['get', `/v1/endpoints/${ep}/targets`],
    ['post', `/v1/endpoints/${ep}/targets`],
    ['delete', `/v1/endpoints/${ep}/targets/tg_x`],
    ['get', '/v1/activity'],
    ['get', '/v1/activity/evt_x'],
    ['get', '/billing/usage'],
    ['get', '/v1/billing/usage'],
    ['get', '/v1/no-such-route'],
  ];
});
afterAll(async () => {
  await fx?.close();
});

type Method = 'get' | 'post' | 'patch' | 'delete';

describe('every management route needs an API key', () => {
  it.each([
    ['no Authorization header', undefined],
    ['an unknown key', 'Bearer rk_not-a-key'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a key without the scheme', 'rk_whatever'],
  ])('%s → 401 unauthorized with WWW-Authenticate, for each route', async (_what, header) => {
    for (const [method, path] of routes) {
      const req = request(fx.app)[method as Method](path);
      const res = await (header === undefined ? req : req.set('Authorization', header)).send({ name: 'x' });
      expect([method, path, res.status]).toEqual([method, path, 401]);
      expect(res.body).toEqual({ code: 'unauthorized', message: expect.stringContaining('API key') });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="relay"');
    }
    // nothing was changed by the refused requests
    expect((await must(fx.client.GET('/v1/endpoints'))).data).toEqual([
      expect.objectContaining({ name: 'e', revision: 1 }),
    ]);
  });

  it('a valid key passes on every route; health checks need none', async () => {
    for (const [method, path] of routes) {
      const res = await request(fx.app)[method as Method](path).set('Authorization', `Bearer ${fx.apiKey}`);
      expect([method, path, res.status === 401]).toEqual([method, path, false]);
    }
    expect((await request(fx.app).get('/healthz')).status).toBe(200);
  });
});
