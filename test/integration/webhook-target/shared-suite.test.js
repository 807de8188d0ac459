"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const shared_suite_1 = require("../../../libs/targets/src/kinds/shared-suite");
const receiver_1 = require("../../support/receiver");
const fixtures_1 = require("./fixtures");
// STYLE.md: every kind runs the shared delivery suite; the receiver is the local capture server.
let receiver;
// read lazily by the suite: the receiver's port is known only once startReceiver has run
const receiverUrl = () => receiver?.url() ?? 'http://127.0.0.1:9/hook';
(0, shared_suite_1.runTargetKindSuite)(fixtures_1.kind, {
    get validConfig() {
        return {
            url: receiverUrl(),
            enforce_https: false,
            auth: { type: 'bearer', token: 'suite-bearer-secret' },
            custom_headers: [{ name: 'X-Api-Token', value: 'suite-header-secret' }],
        };
    },
    invalidConfigs: [
        { input: { url: 'http://example.com/' }, field: 'config.url' },
        { input: { url: 'https://example.com/', custom_headers: [{ name: 'Host', value: 'x' }] }, field: 'config.custom_headers[0].name' },
        { input: { url: 'https://example.com/', auth: { type: 'bearer', token: 't' }, custom_headers: [{ name: 'Authorization', value: 'x' }] }, field: 'config.custom_headers[0].name' },
    ],
    delivery: (0, fixtures_1.delivery)(),
    secrets: ['suite-bearer-secret', 'suite-header-secret'],
    startReceiver: async () => {
        receiver = await receiver_1.TestReceiver.start();
        const r = receiver;
        return {
            send: fixtures_1.send,
            received: () => r.requests.map((q) => ({ method: q.method, path: q.url, body: q.body })),
            close: () => r.close(),
        };
    },
});
//# sourceMappingURL=shared-suite.test.js.map