import { must } from '@relay/client';
import { MAX_TRANSFORMATION_VERSIONS } from '@relay/store';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/*
 * The bounded version history (docs/transformations.md "Versions and the API"): the last
 * MAX_TRANSFORMATION_VERSIONS saves of a scope are kept, an older one is gone, numbers never
 * restart, and the oldest kept can still be restored. Through the API, on the real store.
 */

let fx: ManagementFixture;
let endpointId: string;
/** saves made before the checks: two more than are kept */
const SAVES = MAX_TRANSFORMATION_VERSIONS + 2;

const codeOf = (n: number): string => `(request) => ({ ...request, body: { saved: ${n} } })`;
const path = () => ({ params: { path: { endpointId } } });
const versionPath = (version: number) => ({ params: { path: { endpointId, version: String(version) } } });
/** version numbers from `newest` down to `oldest` */
const numbers = (newest: number, oldest: number): number[] =>
  Array.from({ length: newest - oldest + 1 }, (_, i) => newest - i);

const transformation = () => must(fx.client.GET('/v1/endpoints/{endpointId}/transformation', path()));
const save = (code: string) =>
  must(fx.client.PUT('/v1/endpoints/{endpointId}/transformation', { ...path(), body: { code } }));
const versionStatus = async (version: number): Promise<number> =>
  (await fx.client.GET('/v1/endpoints/{endpointId}/transformation/versions/{version}', versionPath(version))).response
    .status;

beforeAll(async () => {
  fx = await startManagement('mgmt-tx-versions');
  endpointId = (await must(fx.client.POST('/v1/endpoints', { body: { name: 'many versions' } }))).id;
  // one after another, as a person saves: each save is numbered from the one before
  for (let n = 1; n <= SAVES; n += 1) expect((await save(codeOf(n))).version).toBe(n);
});
afterAll(async () => {
  await fx?.close();
});

describe(`the version history keeps the newest ${MAX_TRANSFORMATION_VERSIONS} versions`, () => {
  it(`after ${SAVES} saves, lists versions ${SAVES} down to 3, the newest active`, async () => {
    const t = await transformation();
    expect(t).toMatchObject({ active_version: SAVES, latest_version: SAVES, code: codeOf(SAVES) });
    expect(t.versions.map((v) => v.version)).toEqual(numbers(SAVES, 3));
    expect(t.versions).toHaveLength(MAX_TRANSFORMATION_VERSIONS);
  });

  it('answers 404 for versions 1 and 2, and still has version 3 with its code', async () => {
    expect([await versionStatus(1), await versionStatus(2)]).toEqual([404, 404]);
    const third = await must(
      fx.client.GET('/v1/endpoints/{endpointId}/transformation/versions/{version}', versionPath(3)),
    );
    expect(third).toMatchObject({ version: 3, code: codeOf(3), restored_from: null });
  });

  it(`numbers the next save ${SAVES + 1}, and version 3 then ages out`, async () => {
    expect(await save(codeOf(SAVES + 1))).toMatchObject({ version: SAVES + 1, code: codeOf(SAVES + 1) });
    expect((await transformation()).versions.map((v) => v.version)).toEqual(numbers(SAVES + 1, 4));
    expect(await versionStatus(3)).toBe(404);
  });

  it(`restores the oldest kept version, 4, as ${SAVES + 2}: its code runs, and 4 itself ages out`, async () => {
    const restored = await must(
      fx.client.POST('/v1/endpoints/{endpointId}/transformation/versions/{version}/restore', versionPath(4)),
    );
    expect(restored).toMatchObject({ version: SAVES + 2, restored_from: 4, code: codeOf(4) });
    const t = await transformation();
    expect(t).toMatchObject({ active_version: SAVES + 2, latest_version: SAVES + 2, code: codeOf(4) });
    expect(t.versions.map((v) => v.version)).toEqual(numbers(SAVES + 2, 5));
    expect(t.versions[0]).toMatchObject({ version: SAVES + 2, restored_from: 4 });
    expect(await versionStatus(4)).toBe(404);
  });
});
