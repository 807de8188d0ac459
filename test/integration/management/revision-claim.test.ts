import { connectStore } from '@relay/store';
import type { Store } from '@relay/store';
import { setControl, updateEndpoint } from '../../../services/management-api/src/adapters/endpoint-store';
import { testNamespace } from '../../support/infra';
import { modelsOf } from '../../support/store-models';

/**
 * Several management-api processes on one database: each has its own connection, so the
 * in-process endpoint lock does not help — the revision claim must. Eight connections race.
 */
const { mongodbUrl } = testNamespace('claims');
let stores: Store[] = [];

beforeAll(async () => {
  stores = await Promise.all(Array.from({ length: 8 }, () => connectStore(mongodbUrl)));
});
afterAll(async () => {
  await stores[0]!.connection.dropDatabase();
  await Promise.all(stores.map((s) => s.close()));
});

async function seed(id: string): Promise<void> {
  const now = new Date();
  await modelsOf(stores[0]!).endpoints.create({
    _id: id,
    account_id: 'acc_1',
    name: id,
    enabled: true,
    paused: false,
    methods: ['POST'],
    payload_format: 'json',
    inbound_auth: { type: 'NONE' },
    revision: 1,
    created_at: now,
    updated_at: now,
  });
}

describe('revision claims across processes (FerretDB conditional updates are not atomic)', () => {
  it('of eight concurrent saves on top of one revision, exactly one applies', async () => {
    await seed('ep_claim_save');
    const results = await Promise.all(
      stores.map((s, i) => updateEndpoint(s, 'ep_claim_save', 1, { name: `writer ${i}` })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const doc = await modelsOf(stores[0]!).endpoints.findById('ep_claim_save').lean();
    expect(doc!.revision).toBe(2);
    expect(doc!.name).toBe(`writer ${results.indexOf(true)}`);
  });

  it('of eight concurrent pauses from different processes, exactly one reports a change (one audit row)', async () => {
    await seed('ep_claim_pause');
    const results = await Promise.all(stores.map((s) => setControl(s, 'acc_1', 'ep_claim_pause', 'paused', true)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await modelsOf(stores[0]!).endpoints.findById('ep_claim_pause').lean())!).toMatchObject({
      paused: true,
      revision: 2,
    });
  });
});
