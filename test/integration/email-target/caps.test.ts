import { deliverEmail, MAX_MESSAGE_BYTES, validateEmailConfig } from '../../../libs/targets/src/kinds/email';
import type { EmailConfig } from '../../../libs/targets/src/kinds/email';
import type { SmtpTransport } from '../../../libs/targets/src/transports/smtp';
import { startTestSmtpServer } from '../../support/smtp-server';
import type { TestSmtpServer } from '../../support/smtp-server';
import { delivery, FROM, SMTP_PASS, SMTP_USER, transportTo } from './fixtures';

/* No header injection (CR/LF refused at save and at send) and a size limit. */

let server: TestSmtpServer;
let transport: SmtpTransport;
beforeAll(async () => {
  server = await startTestSmtpServer({ security: 'starttls', auth: { user: SMTP_USER, pass: SMTP_PASS } });
  transport = transportTo(server);
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
    const v = validateEmailConfig({ to: ['ops@example.com'], subject: 's', ...over });
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.errors.map((e) => e.field)).toContain(field);
  });

  it('a payload value that renders a line break into the subject is refused at send: permanent, not flagged, nothing sent', async () => {
    const config: EmailConfig = { to: ['ops@example.com'], cc: [], bcc: [], subject: 'Order {{name}}' };
    const before = server.received.length;
    const result = await deliverEmail(
      config,
      delivery('{"name":"x\\r\\nBcc: victim@example.com"}', 'application/json'),
      { transport, from: FROM },
    );
    expect(result).toMatchObject({ result: 'permanent', status: null, flagTarget: false });
    expect(result.result === 'permanent' && result.error).toMatch(/^HEADER_INJECTION/);
    expect(server.received.length).toBe(before);
  });

  it('a payload value written as an encoded word arrives as literal text in the subject: no line break, no Bcc', async () => {
    const config: EmailConfig = { to: ['ops@example.com'], cc: [], bcc: [], subject: 'Order {{name}}' };
    const forged = '=?utf-8?Q?A=0D=0ABcc:victim@example.com?=';
    const before = server.received.length;
    const result = await deliverEmail(config, delivery(JSON.stringify({ name: forged }), 'application/json'), {
      transport,
      from: FROM,
    });
    expect(result).toEqual({ result: 'success', status: 250 });
    const mail = (await server.waitFor(before + 1))[before]!;
    expect(mail.parsed.subject).toBe(`Order ${forged}`);
    expect(mail.parsed.bcc).toBeUndefined();
    expect(mail.parsed.headers.has('bcc')).toBe(false);
    expect(mail.envelope.to).toEqual(['ops@example.com']);
  });

  it('a subject with no encoded-word syntax arrives as written', async () => {
    const config: EmailConfig = { to: ['ops@example.com'], cc: [], bcc: [], subject: 'Order {{name}}' };
    const before = server.received.length;
    await deliverEmail(config, delivery('{"name":"Zoë = 1?"}', 'application/json'), { transport, from: FROM });
    const mail = (await server.waitFor(before + 1))[before]!;
    expect(mail.parsed.subject).toBe('Order Zoë = 1?');
  });

  it('a stored config with a line break (edited behind the API) is refused at send too', async () => {
    const config: EmailConfig = { to: ['ops@example.com\r\nBcc: victim@example.com'], cc: [], bcc: [], subject: 's' };
    const result = await deliverEmail(config, delivery('{}', 'application/json'), { transport, from: FROM });
    expect(result).toMatchObject({ result: 'permanent', flagTarget: false });
  });
});

describe('size cap', () => {
  const config: EmailConfig = { to: ['ops@example.com'], cc: [], bcc: [], subject: 's' };

  it(`the whole message is checked before sending (default ${MAX_MESSAGE_BYTES} bytes): over it → permanent, nothing sent`, async () => {
    const before = server.received.length;
    const big = 'x'.repeat(60_000);
    const result = await deliverEmail(config, delivery(big, 'text/plain'), {
      transport,
      from: FROM,
      maxMessageBytes: 50_000,
    });
    expect(result).toMatchObject({ result: 'permanent', status: null, flagTarget: false });
    expect(result.result === 'permanent' && result.error).toMatch(
      /^MESSAGE_TOO_LARGE: the email would be \d+ bytes, over the limit of 50000/,
    );
    expect(server.received.length).toBe(before);
  });

  it('a message under the cap goes out whole', async () => {
    const text = 'y'.repeat(40_000);
    const result = await deliverEmail(config, delivery(text, 'text/plain'), {
      transport,
      from: FROM,
      maxMessageBytes: 50_000,
    });
    expect(result).toEqual({ result: 'success', status: 250 });
    expect((await server.waitFor(1)).at(-1)!.parsed.text).toBe(text + '\n');
  });

  it('a 1 MB JSON payload (text + HTML parts) stays under the default cap', async () => {
    const payload = JSON.stringify({
      rows: Array.from({ length: 20_000 }, (_, i) => ({ i, note: '<tag> & "quote"' })),
    });
    expect(payload.length).toBeGreaterThan(700_000);
    // a megabyte through STARTTLS: room for a busy machine beyond the file's short socket timeout
    const patient = transportTo(server, { socketTimeoutMs: 30_000 });
    try {
      const result = await deliverEmail(config, delivery(payload, 'application/json'), {
        transport: patient,
        from: FROM,
      });
      expect(result).toEqual({ result: 'success', status: 250 });
    } finally {
      patient.close();
    }
  });
});
