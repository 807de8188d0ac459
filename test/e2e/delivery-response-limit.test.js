"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const client_1 = require("@relay/client");
const infra_1 = require("../support/infra");
const huge_response_1 = require("../support/huge-response");
const receiver_1 = require("../support/receiver");
const stack_1 = require("./stack");
/**
 * Issue 9, item 1, seen from outside: the real webhook-deliverer process delivers to a
 * loopback destination answering 200 with 1 GiB (plain, then a gzip bomb). Its resident set —
 * including its peak (VmHWM), so nothing between two samples is missed — stays within 64 MB
 * of what it used idle, and the activity row records a clear permanent failure instead of
 * "delivered 200".
 */
let stack;
let huge;
let receiver;
let endpointId;
beforeAll(async () => {
    huge = await huge_response_1.HugeResponseServer.start();
    receiver = await receiver_1.TestReceiver.start();
    stack = await (0, stack_1.startStack)('resplimit');
    endpointId = (await (0, client_1.must)(stack.client.POST('/v1/endpoints', { body: { name: 'huge answers' } }))).id;
});
afterAll(async () => {
    await stack?.stop();
    await huge?.close();
    await receiver?.close();
});
async function withTarget(url, run) {
    const created = await (0, client_1.must)(stack.client.POST('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } }, body: { kind: 'webhook', name: 'huge', config: { url, enforce_https: false }, retry_schedule_ms: [] } }));
    try {
        await run();
    }
    finally {
        await (0, client_1.must)(stack.client.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}', { params: { path: { endpointId, targetId: created.id } } }));
    }
}
async function deliverOnce() {
    const res = await fetch(`${stack.services['ingest-gateway'].url}/relay/${endpointId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"order":1}' });
    expect(res.status).toBe(202);
    const { id: eventId } = await (0, infra_1.eventually)(async () => {
        const list = await (0, client_1.must)(stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpointId, limit: 1 } } }));
        const row = list.data[0];
        return row && !seen.has(row.id) ? row : undefined;
    }, 15000, 'the new activity row');
    seen.add(eventId);
    return (0, infra_1.eventually)(async () => {
        const row = await (0, client_1.must)(stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } }));
        return row.deliveries[0]?.attempts.length ? row : undefined;
    }, 20000, 'the attempt on the row');
}
const seen = new Set();
it('a destination answering 200 with 1 GiB (plain or gzip) leaves the deliverer within 64 MB of its idle RSS and records a permanent failure', async () => {
    const pid = stack.services['webhook-deliverer'].process.pid;
    // warm up: the first delivery loads the sending code paths, which is not what is measured
    await withTarget(receiver.url(), async () => expect((await deliverOnce()).deliveries[0].attempts[0].state).toBe('delivered'));
    const idle = (0, huge_response_1.residentBytes)(pid).rss;
    for (const encoding of ['identity', 'gzip']) {
        huge.answerWith({ status: 200, bytes: huge_response_1.GIB, encoding });
        await withTarget(huge.url(), async () => {
            const row = await deliverOnce();
            expect(row.status).toBe('errors');
            expect(row.deliveries[0].attempts[0]).toMatchObject({ state: 'failed', status_code: null, error: expect.stringMatching(/^RESPONSE_TOO_LARGE: HTTP 200 with a response body over 65536 bytes/) });
        });
        const { rss, peak } = (0, huge_response_1.residentBytes)(pid);
        expect({ encoding, rssGrowthUnder64MB: rss - idle < 64 * huge_response_1.MIB, peakGrowthUnder64MB: peak - idle < 64 * huge_response_1.MIB }).toEqual({ encoding, rssGrowthUnder64MB: true, peakGrowthUnder64MB: true });
        expect(huge.sent).toBeLessThan(64 * huge_response_1.MIB);
    }
});
//# sourceMappingURL=delivery-response-limit.test.js.map