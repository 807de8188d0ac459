"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const client_1 = require("@relay/client");
const infra_1 = require("../support/infra");
const fake_google_1 = require("../support/fake-google");
const outputs_deliverer_1 = require("../support/outputs-deliverer");
const smtp_server_1 = require("../support/smtp-server");
const fixtures_1 = require("../integration/spreadsheet-target/fixtures");
const stack_1 = require("./stack");
/*
 * Issue 23: an event travels from the gateway to an email and a spreadsheet target through the
 * outputs deliverer (the chat-deliverer program with DELIVERY_CHANNEL=outputs), every service its
 * own process, over HTTP only. The mail relay is a real SMTP server (STARTTLS + AUTH); Google is
 * the local HTTPS fake, reached through GOOGLE_TOKEN_URL / GOOGLE_SHEETS_URL with its CA in
 * GOOGLE_CA_FILE, and the SSRF guard allows 127.0.0.1/32 only.
 */
const SMTP_PASS = 'e2e-relay-Pa55';
let stack;
let smtp;
let google;
let outputs;
const sa = (0, fixtures_1.serviceAccount)();
beforeAll(async () => {
    smtp = await (0, smtp_server_1.startTestSmtpServer)({ security: 'starttls', auth: { user: 'relay', pass: SMTP_PASS } });
    google = await (0, fake_google_1.startFakeGoogle)();
    google.registerServiceAccount(fixtures_1.SA_EMAIL, sa.publicKey);
    stack = await (0, stack_1.startStack)('outputs', { only: ['ingest-gateway', 'management-api', 'activity-writer'] });
    outputs = await (0, outputs_deliverer_1.startOutputsDeliverer)(stack.env, { smtp, smtpPassword: SMTP_PASS, google });
});
afterAll(async () => {
    await outputs?.stop();
    await stack?.stop();
    await smtp?.close();
    await google?.close();
});
async function endpointWithOutputs(spreadsheetId) {
    const endpoint = await (0, client_1.must)(stack.client.POST('/v1/endpoints', { body: { name: 'form to outputs', payload_format: 'query', methods: ['GET', 'POST'] } }));
    const path = { path: { endpointId: endpoint.id } };
    await (0, client_1.must)(stack.client.POST('/v1/endpoints/{endpointId}/targets', { params: path, body: { kind: 'email', name: 'ops mail', config: { to: ['ops@example.com'], subject: 'Signup {{email}}' } } }));
    const sheet = await (0, client_1.must)(stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: path,
        body: { kind: 'spreadsheet', name: 'signups sheet', config: { spreadsheet_id: spreadsheetId, sheet_name: 'Sheet1', service_account_key: sa.keyFile } },
    }));
    return { endpointId: endpoint.id, sheetTarget: sheet };
}
describe('email and spreadsheet targets, end to end', () => {
    it('one GET with query parameters becomes an email (JSON formatting) and a sheet row (all fields); the key is never shown', async () => {
        const spreadsheetId = (0, fixtures_1.newSpreadsheetId)();
        google.addSpreadsheet(spreadsheetId, { sharedWith: [fixtures_1.SA_EMAIL] });
        const { endpointId, sheetTarget } = await endpointWithOutputs(spreadsheetId);
        expect(JSON.stringify(sheetTarget)).not.toMatch(/PRIVATE KEY|private_key/);
        expect(sheetTarget.config.service_account_key).toBe('[redacted]');
        const res = await fetch(`${stack.services['ingest-gateway'].url}/relay/${endpointId}?email=ada%40example.com&plan=pro&tag=a&tag=b`);
        expect(res.status).toBe(202);
        const [mail] = await smtp.waitFor(1, 20_000);
        expect(mail.parsed.subject).toBe('Signup ada@example.com');
        expect(mail.parsed.text).toBe('{\n  "email": "ada@example.com",\n  "plan": "pro",\n  "tag": [\n    "a",\n    "b"\n  ]\n}');
        expect(mail.envelope.to).toEqual(['ops@example.com']);
        expect(mail.secure).toBe(true);
        const rows = await (0, infra_1.eventually)(async () => google.rows(spreadsheetId).length === 2 && google.rows(spreadsheetId), 20_000, 'sheet row');
        expect(rows[0]).toEqual(['relay_delivery_id', 'email', 'plan', 'tag']);
        expect(rows[1].slice(1)).toEqual(['ada@example.com', 'pro', '["a","b"]']);
        // the Message-ID is the email target's delivery id at the sender's domain
        expect(mail.parsed.messageId).toMatch(/^<dlv_[0-9a-z_]+@relay\.example>$/);
        // both attempts are in the activity log as delivered
        const activity = await (0, infra_1.eventually)(async () => {
            const got = await (0, client_1.must)(stack.client.GET('/v1/activity', { params: { query: { endpoint_id: endpointId } } }));
            const row = got.data[0];
            return row && JSON.stringify(row).includes('"completed"') && row;
        }, 20_000, 'activity');
        expect(JSON.stringify(activity)).not.toMatch(/PRIVATE KEY|e2e-relay-Pa55/);
        expect(outputs.output()).not.toMatch(/PRIVATE KEY|e2e-relay-Pa55/);
    });
    it('a spreadsheet not shared with the service account: the target is flagged', async () => {
        const spreadsheetId = (0, fixtures_1.newSpreadsheetId)();
        google.addSpreadsheet(spreadsheetId, { sharedWith: ['someone@example.com'] });
        const { endpointId } = await endpointWithOutputs(spreadsheetId);
        const before = smtp.received.length;
        expect((await fetch(`${stack.services['ingest-gateway'].url}/relay/${endpointId}?email=b%40example.com`)).status).toBe(202);
        await smtp.waitFor(before + 1, 20_000);
        const flagged = await (0, infra_1.eventually)(async () => {
            const targets = await (0, client_1.must)(stack.client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }));
            const sheet = targets.data.find((t) => t.kind === 'spreadsheet');
            return sheet?.flagged ? sheet : false;
        }, 20_000, 'flag');
        expect(JSON.stringify(flagged.flagged)).toMatch(/403|PERMISSION_DENIED|destination/);
    });
});
//# sourceMappingURL=outputs-delivery.test.js.map