"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.send = exports.kind = exports.secrets = void 0;
exports.saveConfig = saveConfig;
exports.delivery = delivery;
exports.attempt = attempt;
const node_crypto_1 = require("node:crypto");
const secrets_1 = require("@relay/secrets");
const send_1 = require("../../../libs/targets/src/http/send");
const webhook_1 = require("../../../libs/targets/src/kinds/webhook");
exports.secrets = (0, secrets_1.createSecretBox)(`it:${(0, node_crypto_1.randomBytes)(32).toString('base64')}`);
exports.kind = (0, webhook_1.createWebhookKind)({ secrets: exports.secrets });
/** Receivers run on 127.0.0.1, so the tests' deliverer allowlists loopback (SSRF_ALLOW_CIDRS). */
exports.send = (0, send_1.createSender)({ timeoutMs: 3000, allowCidrs: ['127.0.0.0/8'] });
/** Saves a config through the kind's validation, as the management API does. */
function saveConfig(input) {
    const r = exports.kind.validateConfig({ enforce_https: false, ...input });
    if (!r.ok)
        throw new Error(`invalid test config: ${JSON.stringify(r.errors)}`);
    return r.value;
}
function delivery(over = {}, headers = {}) {
    return {
        type: 'relay.delivery.v1',
        event_id: 'evt_it1',
        delivery_id: 'dlv_it1_a',
        attempt: 1,
        account_id: 'acc_it',
        endpoint_id: 'ep_it',
        target_id: 'tg_a',
        target_kind: 'webhook',
        received_at: new Date().toISOString(),
        request: { method: 'POST', source_ip: '198.51.100.7', headers, query: '' },
        payload: { content_type: 'application/json', body_base64: Buffer.from('{"order":42}').toString('base64') },
        ...over,
    };
}
/** One attempt end to end: build, send through the SSRF-guarded sender, classify. */
async function attempt(config, d = delivery()) {
    const sent = await (0, exports.send)(exports.kind.buildRequest(config, d));
    return { sent, result: exports.kind.classify(sent) };
}
//# sourceMappingURL=fixtures.js.map