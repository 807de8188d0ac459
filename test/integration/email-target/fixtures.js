"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FROM = exports.SMTP_PASS = exports.SMTP_USER = void 0;
exports.delivery = delivery;
exports.transportTo = transportTo;
const contracts_1 = require("@relay/contracts");
const smtp_1 = require("../../../libs/targets/src/transports/smtp");
exports.SMTP_USER = 'relay-it';
exports.SMTP_PASS = 'it-secret-Pa55word';
exports.FROM = 'relay@relay.example';
let seq = 0;
/** A delivery as the gateway publishes it: `body` is the exact bytes a webhook target would get. */
function delivery(body, contentType, attempt = 1, deliveryId) {
    seq += 1;
    return {
        type: contracts_1.DELIVERY_V1,
        event_id: `evt_email${seq}`,
        delivery_id: deliveryId ?? `dlv_email${seq}_tgmail`,
        attempt,
        account_id: 'acc-email',
        endpoint_id: 'ep-email',
        target_id: 'tg_mail',
        target_kind: 'email',
        received_at: '2026-11-26T12:00:00.000Z',
        request: { method: 'POST', source_ip: '203.0.113.9', headers: {}, query: '' },
        payload: { content_type: contentType, body_base64: Buffer.from(body).toString('base64') },
    };
}
/** A transport to the test server as an operator would configure it, with short timeouts. */
function transportTo(server, over = {}) {
    return (0, smtp_1.createSmtpTransport)({
        ...smtp_1.SMTP_DEFAULTS,
        host: '127.0.0.1',
        port: server.port,
        security: 'starttls',
        username: exports.SMTP_USER,
        password: exports.SMTP_PASS,
        from: exports.FROM,
        ca: server.ca,
        connectionTimeoutMs: 2_000,
        greetingTimeoutMs: 2_000,
        socketTimeoutMs: 2_000,
        maxConnections: 2,
        ...over,
    });
}
//# sourceMappingURL=fixtures.js.map