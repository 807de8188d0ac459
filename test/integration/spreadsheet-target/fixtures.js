"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.secrets = exports.SA_EMAIL = void 0;
exports.serviceAccount = serviceAccount;
exports.target = target;
exports.newSpreadsheetId = newSpreadsheetId;
exports.delivery = delivery;
exports.deliverer = deliverer;
const node_crypto_1 = require("node:crypto");
const contracts_1 = require("@relay/contracts");
const secrets_1 = require("@relay/secrets");
const google_1 = require("../../../libs/targets/src/transports/google");
const spreadsheet_1 = require("../../../libs/targets/src/kinds/spreadsheet");
exports.SA_EMAIL = 'relay-it@relay-test.iam.gserviceaccount.com';
function serviceAccount(email = exports.SA_EMAIL) {
    const { privateKey, publicKey } = (0, node_crypto_1.generateKeyPairSync)('rsa', { modulusLength: 2048 });
    const keyFile = JSON.stringify({
        type: 'service_account',
        project_id: 'relay-test',
        private_key_id: (0, node_crypto_1.randomBytes)(20).toString('hex'),
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        client_email: email,
        // ignored by Relay: tokens are only ever asked of Google's own endpoint
        token_uri: 'http://127.0.0.1:1/token',
    });
    return { keyFile, publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}
exports.secrets = (0, secrets_1.createSecretBox)(`it:${(0, node_crypto_1.randomBytes)(32).toString('base64')}`);
/** A saved target: validated as at save, its key sealed as the kind stores it. */
function target(spreadsheetId, keyFile, sheetName = 'Sheet1') {
    const v = (0, spreadsheet_1.validateSpreadsheetConfig)({ spreadsheet_id: spreadsheetId, sheet_name: sheetName, service_account_key: keyFile });
    if (!v.ok)
        throw new Error(JSON.stringify(v.errors));
    return { ...v.value, service_account_key: exports.secrets.encrypt(v.value.service_account_key) };
}
function newSpreadsheetId() {
    return (0, node_crypto_1.randomBytes)(33).toString('base64url');
}
let seq = 0;
function delivery(body, contentType, attempt = 1, deliveryId) {
    seq += 1;
    return {
        type: contracts_1.DELIVERY_V1,
        event_id: `evt_sheet${seq}`,
        delivery_id: deliveryId ?? `dlv_sheet${seq}_tgsheet`,
        attempt,
        account_id: 'acc-sheet',
        endpoint_id: 'ep-sheet',
        target_id: 'tg_sheet',
        target_kind: 'spreadsheet',
        received_at: '2026-11-26T12:00:00.000Z',
        request: { method: 'POST', source_ip: '203.0.113.9', headers: {}, query: '' },
        payload: { content_type: contentType, body_base64: Buffer.from(body).toString('base64') },
    };
}
/** The deliverer's side, wired to the fake: one token cache and Sheets client per process. */
function deliverer(fake, now) {
    const tokens = (0, google_1.createTokenSource)({ send: fake.send, ...(now ? { now } : {}) });
    const sheets = (0, google_1.createSheetsClient)({ send: fake.send, tokens });
    return { tokens, deliver: (c, d) => (0, spreadsheet_1.deliverToSheet)(c, d, { sheets, openKey: (stored) => exports.secrets.decrypt(stored) }) };
}
//# sourceMappingURL=fixtures.js.map