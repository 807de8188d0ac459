"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const huge_response_1 = require("../../support/huge-response");
const harness_1 = require("./harness");
const http_1 = require("./http");
/**
 * Issue 9, item 1, the gateway's side: the captcha check calls the endpoint's `verify_url`
 * through the same sender as deliveries, so a verify URL answering 1 GiB (plain or a gzip
 * bomb) is read only up to the sender's limit and never inflated. The gateway app runs in this
 * process, so this process's RSS is the one sampled. The captcha fails closed: 503
 * endpoint_unavailable with a CAPTCHA_FAILED row, as for any verifier outage.
 */
let h;
let gw;
let account;
let verifier;
beforeAll(async () => {
    h = await harness_1.IngestHarness.start('captcha-limit');
    gw = await h.gateway();
    account = await h.account();
    verifier = await huge_response_1.HugeResponseServer.start();
});
afterAll(async () => {
    await h?.stop();
    await verifier?.close();
});
it.each([
    ['plain bytes', 'identity'],
    ['a gzip bomb labelled Content-Encoding: gzip', 'gzip'],
])('a captcha verify URL streaming 1 GiB (%s) leaves RSS within 64 MB and fails closed with a clear reason', async (_name, encoding) => {
    verifier.answerWith({ status: 200, bytes: huge_response_1.GIB, encoding });
    const id = await h.endpoint(account, { captcha: { provider: 'hcaptcha', secret: h.seal('s'), verify_url: verifier.url('/siteverify') } });
    const before = (0, huge_response_1.residentBytes)().rss;
    let highest = before;
    const timer = setInterval(() => (highest = Math.max(highest, (0, huge_response_1.residentBytes)().rss)), 20);
    try {
        const res = await (0, http_1.send)(gw, id, { body: '{"h-captcha-response":"t"}' });
        expect([res.status, res.json.code]).toEqual([503, 'endpoint_unavailable']);
    }
    finally {
        clearInterval(timer);
    }
    expect(Math.max(highest, (0, huge_response_1.residentBytes)().rss) - before).toBeLessThan(64 * huge_response_1.MIB);
    expect(verifier.sent).toBeLessThan(64 * huge_response_1.MIB);
    expect((await h.waitForRows(id, 1))[0]).toMatchObject({ outcome: 'CAPTCHA_FAILED', reason: expect.stringMatching(/unavailable/) });
    expect(gw.logs().filter((l) => l.message === 'captcha verifier unavailable').at(-1)).toMatchObject({ problem: 'RESPONSE_TOO_LARGE' });
});
//# sourceMappingURL=captcha-response-limit.test.js.map