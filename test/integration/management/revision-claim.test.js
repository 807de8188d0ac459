"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const store_1 = require("@relay/store");
const endpoint_store_1 = require("../../../services/management-api/src/adapters/endpoint-store");
const infra_1 = require("../../support/infra");
const store_models_1 = require("../../support/store-models");
/**
 * Several management-api processes on one database: each has its own connection, so the
 * in-process endpoint lock does not help — the revision claim must. Eight connections race.
 */
const { mongodbUrl } = (0, infra_1.testNamespace)('claims');
let stores = [];
beforeAll(async () => {
    stores = await Promise.all(Array.from({ length: 8 }, () => (0, store_1.connectStore)(mongodbUrl)));
});
afterAll(async () => {
    await stores[0].connection.dropDatabase();
    await Promise.all(stores.map((s) => s.close()));
});
async function seed(id) {
    const now = new Date();
    await (0, store_models_1.modelsOf)(stores[0]).endpoints.create({ _id: id, account_id: 'acc_1', name: id, enabled: true, paused: false, methods: ['POST'], payload_format: 'json', inbound_auth: { type: 'NONE' }, revision: 1, created_at: now, updated_at: now });
}
describe('revision claims across processes (FerretDB conditional updates are not atomic)', () => {
    it('of eight concurrent saves on top of one revision, exactly one applies', async () => {
        await seed('ep_claim_save');
        const results = await Promise.all(stores.map((s, i) => (0, endpoint_store_1.updateEndpoint)(s, 'ep_claim_save', 1, { name: `writer ${i}` })));
        expect(results.filter(Boolean)).toHaveLength(1);
        const doc = await (0, store_models_1.modelsOf)(stores[0]).endpoints.findById('ep_claim_save').lean();
        expect(doc.revision).toBe(2);
        expect(doc.name).toBe(`writer ${results.indexOf(true)}`);
    });
    it('of eight concurrent pauses from different processes, exactly one reports a change (one audit row)', async () => {
        await seed('ep_claim_pause');
        const results = await Promise.all(stores.map((s) => (0, endpoint_store_1.setControl)(s, 'acc_1', 'ep_claim_pause', 'paused', true)));
        expect(results.filter(Boolean)).toHaveLength(1);
        expect((await (0, store_models_1.modelsOf)(stores[0]).endpoints.findById('ep_claim_pause').lean())).toMatchObject({ paused: true, revision: 2 });
    });
});
//# sourceMappingURL=revision-claim.test.js.map