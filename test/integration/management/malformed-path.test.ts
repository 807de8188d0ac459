import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/** Bad percent-encoding in a management path is a documented 400, not a 500. */
let fx: ManagementFixture;
beforeAll(async () => {
  fx = await startManagement('mgmt-pct');
});
afterAll(async () => {
  await fx?.close();
});

describe('bad percent-encoding in the path', () => {
  it.each([
    ['get', '/v1/endpoints/%ZZ'],
    ['patch', '/v1/endpoints/%ZZ'],
    ['get', '/v1/endpoints/%E0%A4%A/targets'],
    ['get', '/v1/activity/%ZZ'],
  ] as const)('%s %s → 400 malformed_path, nothing logged as an error', async (method, path) => {
    // raw: a path with bad percent-encoding, which the typed client would encode
    const res = await fx.api(method, path, method === 'patch' ? {} : undefined);
    expect([res.status, res.body.code]).toEqual([400, 'malformed_path']);
    expect(fx.logLines().filter((l) => l.level === 'error')).toEqual([]);
  });
});
