"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const contracts_1 = require("@relay/contracts");
const harness_1 = require("./harness");
const http_1 = require("./http");
const store_models_1 = require("../../support/store-models");
/*
 * Issue 29: a missed announcement is harmless (docs/architecture.md "Caches of settings"). The
 * gateway's cache follows the numbered announcements on the real Redis; here a change is
 * stored and numbered but its message never published (as if lost on the way), or published
 * with a number that skips one. Either way the gateway finds the change by revalidating what
 * it holds, within 1 s.
 */
const IN_FORCE_MS = 1000;
let h;
let gw;
let account;
beforeAll(async () => {
    h = await harness_1.IngestHarness.start('missed-ann');
    gw = await h.gateway();
    account = await h.account();
});
afterAll(async () => {
    await h?.stop();
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Changes the stored endpoint without telling anyone, as a change whose message was lost. */
async function changeSilently(endpointId, methods) {
    await (0, store_models_1.modelsOf)(h.store).endpoints.updateOne({ _id: endpointId }, { $set: { methods, updated_at: new Date() }, $inc: { revision: 1 } });
}
describe('a missed change announcement', () => {
    it('numbered but never published: the counter ahead of what was heard starts a revalidation', async () => {
        const id = await h.endpoint(account);
        expect((await (0, http_1.send)(gw, id)).status).toBe(202);
        await changeSilently(id, ['PUT']);
        await h.redis.incr((0, contracts_1.cacheChangesSeqKey)(h.namespace));
        await sleep(IN_FORCE_MS);
        expect((await (0, http_1.send)(gw, id)).status).toBe(405);
    });
    it('a message whose number skips one (the one before it lost): the gap starts a revalidation', async () => {
        const id = await h.endpoint(account);
        expect((await (0, http_1.send)(gw, id)).status).toBe(202);
        await changeSilently(id, ['PUT']);
        const skipped = (await h.redis.incrby((0, contracts_1.cacheChangesSeqKey)(h.namespace), 2));
        // an unrelated change with the later number: the one before it never arrives
        await h.redis.publish((0, contracts_1.cacheChangesChannel)(h.namespace), `${skipped} endpoint ep_00000000000000000000`);
        await sleep(IN_FORCE_MS);
        expect((await (0, http_1.send)(gw, id)).status).toBe(405);
    });
    it('without any announcement or gap, a held endpoint is served from memory: the silent change is not seen', async () => {
        const id = await h.endpoint(account);
        expect((await (0, http_1.send)(gw, id)).status).toBe(202);
        await changeSilently(id, ['PUT']);
        await sleep(IN_FORCE_MS);
        // kept until told: this is why every write goes through announceChange (and the 5-minute sweep is the safety net)
        expect((await (0, http_1.send)(gw, id)).status).toBe(202);
    });
});
//# sourceMappingURL=missed-announcement.test.js.map