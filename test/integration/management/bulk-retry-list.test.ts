import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/**
 * GET /v1/bulk-retries (docs/management-api.md "Bulk retry"): the account's jobs, newest first,
 * each as GET /v1/bulk-retries/:jobId shows it, paged by `limit` and `cursor`. Every response is
 * checked against the OpenAPI document (fixture.ts). No runner here: the jobs stay queued.
 */
let fx: ManagementFixture;
beforeAll(async () => {
  fx = await startManagement('mgmt-bulklist');
});
afterAll(async () => {
  await fx?.close();
});

const createJob = async (endpointId: string): Promise<string> => {
  const res = await fx.api('post', '/v1/bulk-retries', { endpoint_id: endpointId });
  expect(res.status).toBe(202);
  return res.body.id as string;
};

describe('GET /v1/bulk-retries', () => {
  it("lists the account's jobs newest first, page by page, each as its own GET shows it", async () => {
    const endpointId = (await fx.api('post', '/v1/endpoints', { name: 'bulk list' })).body.id as string;
    const made: string[] = [];
    for (let k = 0; k < 5; k++) made.push(await createJob(endpointId));
    await fx.api('post', `/v1/bulk-retries/${made[4]}/cancel`).expect(202);

    const first = await fx.api('get', '/v1/bulk-retries?limit=2').expect(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body.data.map((j: { id: string }) => j.id)).toEqual([made[4], made[3]]);
    expect(first.body.data[0]).toEqual((await fx.api('get', `/v1/bulk-retries/${made[4]}`)).body);
    expect(first.body.data[0]).toMatchObject({ state: 'queued', cancel_requested: true, filter: { endpoint_id: endpointId } });
    expect(typeof first.body.next_cursor).toBe('string');

    const second = await fx.api('get', `/v1/bulk-retries?limit=2&cursor=${first.body.next_cursor}`).expect(200);
    expect(second.body.data.map((j: { id: string }) => j.id)).toEqual([made[2], made[1]]);
    const last = await fx.api('get', `/v1/bulk-retries?limit=2&cursor=${second.body.next_cursor}`).expect(200);
    expect(last.body).toMatchObject({ data: [{ id: made[0] }], next_cursor: null });

    // the default page holds all five
    expect((await fx.api('get', '/v1/bulk-retries').expect(200)).body.data).toHaveLength(5);
  });

  it("shows another account none of this account's jobs", async () => {
    const other = await fx.newAccount();
    const res = await fx.apiAs(other.apiKey, 'get', '/v1/bulk-retries').expect(200);
    expect(res.body).toEqual({ data: [], next_cursor: null });
  });

  it('refuses a limit out of 1-100 and a cursor it did not give, naming each field', async () => {
    const res = await fx.api('get', '/v1/bulk-retries?limit=101&cursor=abc');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['cursor', 'limit']);
    expect((await fx.api('get', '/v1/bulk-retries?limit=0')).status).toBe(400);
  });
});
