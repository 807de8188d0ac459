import { deliverEmail, validateEmailConfig } from '../../../libs/targets/src/kinds/email';
import type { EmailConfig } from '../../../libs/targets/src/kinds/email';
import type { SmtpTransport } from '../../../libs/targets/src/transports/smtp';
import { startTestSmtpServer } from '../../support/smtp-server';
import type { TestSmtpServer } from '../../support/smtp-server';
import { delivery, FROM, SMTP_USER, transportTo } from './fixtures';

/*
 * Spec "Feature interaction", row "Email formatting": the exact parts a real
 * SMTP server received, parsed with mailparser, for every payload format. The payload bytes
 * are what the gateway publishes for each format (read-payload.ts): None → no content type,
 * empty; form, Query Parameters and Base64 JSON → JSON; XML and text → the body as sent.
 */

let server: TestSmtpServer;
let transport: SmtpTransport;
const config = (over: Partial<EmailConfig> = {}): EmailConfig => {
  const v = validateEmailConfig({
    to: ['ops@example.com'],
    cc: ['lead@example.com'],
    bcc: ['audit@example.com'],
    subject: 'Order {{order.id}}',
    reply_to: 'help@example.com',
    ...over,
  });
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return v.value;
};

beforeAll(async () => {
  server = await startTestSmtpServer({ security: 'starttls', auth: { user: SMTP_USER, pass: 'it-secret-Pa55word' } });
  transport = transportTo(server);
});
afterAll(async () => {
  transport.close();
  await server.close();
});

async function send(body: string, contentType: string | null, cfg = config()) {
  const before = server.received.length;
  const result = await deliverEmail(cfg, delivery(body, contentType), { transport, from: FROM });
  expect(result).toEqual({ result: 'success', status: 250 });
  return (await server.waitFor(before + 1))[before]!;
}

const JSON_HTML = (json: string): string =>
  `<!doctype html>\n<html><head><meta charset="utf-8"></head><body><pre style="font-family:monospace;white-space:pre-wrap">${json}</pre></body></html>\n`;

describe('Email formatting per payload format, as received by a real SMTP server', () => {
  it('None: the empty payload — an empty text part and no HTML part', async () => {
    const mail = await send('', null);
    expect(mail.parsed.text ?? '').toBe('');
    expect(mail.parsed.html).toBe(false);
  });

  it('JSON: the payload formatted as JSON, a text part and an escaped HTML part', async () => {
    const mail = await send('{"order":{"id":7},"note":"<b>5 > 3 & \\"x\\"</b>"}', 'application/json');
    const pretty = '{\n  "order": {\n    "id": 7\n  },\n  "note": "<b>5 > 3 & \\"x\\"</b>"\n}';
    expect(mail.parsed.text).toBe(pretty);
    expect(mail.parsed.html).toBe(
      JSON_HTML(
        '{\n  &quot;order&quot;: {\n    &quot;id&quot;: 7\n  },\n  &quot;note&quot;: &quot;&lt;b&gt;5 &gt; 3 &amp; \\&quot;x\\&quot;&lt;/b&gt;&quot;\n}',
      ),
    );
    expect(mail.parsed.subject).toBe('Order 7');
  });

  it('form: delivered as the fields object, formatted as JSON', async () => {
    const mail = await send('{"name":"Ada","tags":["a","b"]}', 'application/json');
    expect(mail.parsed.text).toBe('{\n  "name": "Ada",\n  "tags": [\n    "a",\n    "b"\n  ]\n}');
  });

  it('Query Parameters: the flat object (a repeated name as an array), formatted as JSON', async () => {
    const mail = await send('{"a":"1","b":["x","y"],"c":""}', 'application/json');
    expect(mail.parsed.text).toBe('{\n  "a": "1",\n  "b": [\n    "x",\n    "y"\n  ],\n  "c": ""\n}');
    expect(mail.parsed.html).toContain('&quot;b&quot;: [');
  });

  it('Base64 JSON: the decoded document, a non-object root too, formatted as JSON', async () => {
    expect((await send('[1,{"k":true}]', 'application/json')).parsed.text).toBe('[\n  1,\n  {\n    "k": true\n  }\n]');
    expect((await send('"just text"', 'application/json')).parsed.text).toBe('"just text"');
  });

  it('XML: the text as received, text part only', async () => {
    const xml = '<?xml version="1.0"?>\n<order id="7"><note>a &amp; b</note></order>';
    const mail = await send(xml, 'application/xml');
    // a single-part body ends with the message's final CRLF, which the parser keeps
    expect(mail.parsed.text).toBe(xml + '\n');
    expect(mail.parsed.html).toBe(false);
  });

  it('plain text: the text as received, non-ASCII intact', async () => {
    const mail = await send('Grüße — 5 > 3\nline two', 'text/plain; charset=utf-8');
    expect(mail.parsed.text).toBe('Grüße — 5 > 3\nline two\n');
  });

  it('headers: From the relay sender, To/Cc/Reply-To from the target, bcc only in the envelope, sent over STARTTLS with AUTH', async () => {
    const mail = await send('{}', 'application/json');
    expect(mail.parsed.from?.text).toBe(FROM);
    expect(mail.parsed.to).toMatchObject({ text: 'ops@example.com' });
    expect(mail.parsed.cc).toMatchObject({ text: 'lead@example.com' });
    expect(mail.parsed.replyTo?.text).toBe('help@example.com');
    expect(mail.parsed.bcc).toBeUndefined();
    expect(mail.raw.toString()).not.toMatch(/audit@example\.com/);
    expect(mail.raw.toString()).not.toMatch(/[^\r]\n/);
    expect(mail.envelope).toEqual({ from: FROM, to: ['ops@example.com', 'lead@example.com', 'audit@example.com'] });
    expect(mail.parsed.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mail.secure).toBe(true);
    expect(mail.user).toBe(SMTP_USER);
  });

  it('a retried attempt is the same message: same Message-ID (from the delivery id), same bytes', async () => {
    const first = delivery('{"n":1}', 'application/json', 1, 'dlv_same_tgmail');
    const retry = { ...first, attempt: 2 };
    expect(await deliverEmail(config(), first, { transport, from: FROM })).toMatchObject({ result: 'success' });
    expect(await deliverEmail(config(), retry, { transport, from: FROM })).toMatchObject({ result: 'success' });
    const [a, b] = server.received.slice(-2);
    expect(a!.parsed.messageId).toBe('<dlv_same_tgmail@relay.example>');
    expect(b!.parsed.messageId).toBe(a!.parsed.messageId);
    expect(b!.raw.equals(a!.raw)).toBe(true);
  });
});
