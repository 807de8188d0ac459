import { errorOf, must } from '@relay/client';
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

const createJob = async (endpointId: string): Promise<string> =>
  (await must(fx.client.POST('/v1/bulk-retries', { body: { endpoint_id: endpointId } }))).id;
const page = (query: { limit?: number; cursor?: string } = {}) =>
  must(fx.client.GET('/v1/bulk-retries', { params: { query } }));

describe('GET /v1/bulk-retries', () => {
  it("lists the account's jobs newest first, page by page, each as its own GET shows it", async () => {
    const endpointId = (await must(fx.client.POST('/v1/endpoints', { body: { name: 'bulk list' } }))).id;
    const made: string[] = [];
    for (let k = 0; k < 5; k++) made.push(await createJob(endpointId));
    await must(fx.client.POST('/v1/bulk-retries/{jobId}/cancel', { params: { path: { jobId: made[4]! } } }));

    // raw: the list's Cache-Control header
    const first = await fx.api('get', '/v1/bulk-retries?limit=2').expect(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const firstPage = await page({ limit: 2 });
    expect(firstPage.data.map((j) => j.id)).toEqual([made[4], made[3]]);
    expect(firstPage.data[0]).toEqual(
      await must(fx.client.GET('/v1/bulk-retries/{jobId}', { params: { path: { jobId: made[4]! } } })),
    );
    expect(firstPage.data[0]).toMatchObject({
      state: 'queued',
      cancel_requested: true,
      filter: { endpoint_id: endpointId },
    });
    expect(typeof firstPage.next_cursor).toBe('string');

    const second = await page({ limit: 2, cursor: firstPage.next_cursor! });
    expect(second.data.map((j) => j.id)).toEqual([made[2], made[1]]);
    const last = await page({ limit: 2, cursor: second.next_cursor! });
    expect(last).toMatchObject({ data: [{ id: made[0] }], next_cursor: null });

    // the default page holds all five
    expect((await page()).data).toHaveLength(5);
  });

  it("shows another account none of this account's jobs", async () => {
    const other = await fx.newAccount();
    expect(await must(fx.clientAs(other.apiKey).GET('/v1/bulk-retries'))).toEqual({ data: [], next_cursor: null });
  });

  it('refuses a limit out of 1-100 and a cursor it did not give, naming each field', async () => {
    const res = await fx.client.GET('/v1/bulk-retries', { params: { query: { limit: 101, cursor: 'abc' } } });
    const refused = errorOf(res.response, res.error);
    expect(refused.status).toBe(400);
    expect(refused.errors.map((e) => e.field).sort()).toEqual(['cursor', 'limit']);
    expect((await fx.client.GET('/v1/bulk-retries', { params: { query: { limit: 0 } } })).response.status).toBe(400);
  });
});
