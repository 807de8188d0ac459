"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const email_1 = require("../../../libs/targets/src/kinds/email");
const smtp_server_1 = require("../../support/smtp-server");
const fixtures_1 = require("./fixtures");
/* Issue 23, item 3: no header injection (CR/LF refused at save and at send) and a size limit. */
let server;
let transport;
beforeAll(async () => {
    server = await (0, smtp_server_1.startTestSmtpServer)({ security: 'starttls', auth: { user: fixtures_1.SMTP_USER, pass: fixtures_1.SMTP_PASS } });
    transport = (0, fixtures_1.transportTo)(server);
});
afterAll(async () => {
    transport.close();
    await server.close();
});
describe('CR/LF in anything that reaches a header', () => {
    it.each([
        ['config.subject', { subject: 'Hi\r\nBcc: victim@example.com' }],
        ['config.to[0]', { to: ['ops@example.com\r\nBcc: victim@example.com'] }],
        ['config.cc[0]', { cc: ['lead@example.com\n'] }],
        ['config.reply_to', { reply_to: 'help@example.com\rX-Evil: 1' }],
    ])('is refused at save, at %s', (field, over) => {
        const v = (0, email_1.validateEmailConfig)({ to: ['ops@example.com'], subject: 's', ...over });
        expect(v.ok).toBe(false);
        if (!v.ok)
            expect(v.errors.map((e) => e.field)).toContain(field);
    });
    it('a payload value that renders a line break into the subject is refused at send: permanent, not flagged, nothing sent', async () => {
        const config = { to: ['ops@example.com'], cc: [], bcc: [], subject: 'Order {{name}}' };
        const before = server.received.length;
        const result = await (0, email_1.deliverEmail)(config, (0, fixtures_1.delivery)('{"name":"x\\r\\nBcc: victim@example.com"}', 'application/json'), { transport, from: fixtures_1.FROM });
        expect(result).toMatchObject({ result: 'permanent', status: null, flagTarget: false });
        expect(result.result === 'permanent' && result.error).toMatch(/^HEADER_INJECTION/);
        expect(server.received.length).toBe(before);
    });
    it('a stored config with a line break (edited behind the API) is refused at send too', async () => {
        const config = { to: ['ops@example.com\r\nBcc: victim@example.com'], cc: [], bcc: [], subject: 's' };
        const result = await (0, email_1.deliverEmail)(config, (0, fixtures_1.delivery)('{}', 'application/json'), { transport, from: fixtures_1.FROM });
        expect(result).toMatchObject({ result: 'permanent', flagTarget: false });
    });
});
describe('size limit', () => {
    const config = { to: ['ops@example.com'], cc: [], bcc: [], subject: 's' };
    it(`the whole message is checked before sending (default ${email_1.MAX_MESSAGE_BYTES} bytes): over it → permanent, nothing sent`, async () => {
        const before = server.received.length;
        const big = 'x'.repeat(60_000);
        const result = await (0, email_1.deliverEmail)(config, (0, fixtures_1.delivery)(big, 'text/plain'), { transport, from: fixtures_1.FROM, maxMessageBytes: 50_000 });
        expect(result).toMatchObject({ result: 'permanent', status: null, flagTarget: false });
        expect(result.result === 'permanent' && result.error).toMatch(/^MESSAGE_TOO_LARGE: the email would be \d+ bytes, over the limit of 50000/);
        expect(server.received.length).toBe(before);
    });
    it('a message under the limit goes out whole', async () => {
        const text = 'y'.repeat(40_000);
        const result = await (0, email_1.deliverEmail)(config, (0, fixtures_1.delivery)(text, 'text/plain'), { transport, from: fixtures_1.FROM, maxMessageBytes: 50_000 });
        expect(result).toEqual({ result: 'success', status: 250 });
        expect((await server.waitFor(1)).at(-1).parsed.text).toBe(text + '\n');
    });
    it('a 1 MB JSON payload (text + HTML parts) stays under the default limit', async () => {
        const payload = JSON.stringify({ rows: Array.from({ length: 20_000 }, (_, i) => ({ i, note: '<tag> & "quote"' })) });
        expect(payload.length).toBeGreaterThan(700_000);
        const result = await (0, email_1.deliverEmail)(config, (0, fixtures_1.delivery)(payload, 'application/json'), { transport, from: fixtures_1.FROM });
        expect(result).toEqual({ result: 'success', status: 250 });
    });
});
//# sourceMappingURL=limits.test.js.map