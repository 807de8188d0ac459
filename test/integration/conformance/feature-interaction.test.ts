import type { DeliveryMessageV1 } from '@relay/contracts';
import { createEmailKind, createSmtpTransport, createSpreadsheetKind, SMTP_DEFAULTS } from '@relay/targets';
import type { SmtpTransport, TransportKind } from '@relay/targets';
import { eventually } from '../../support/infra';
import { startFakeGoogle } from '../../support/fake-google';
import type { FakeGoogle } from '../../support/fake-google';
import { startTestSmtpServer } from '../../support/smtp-server';
import type { TestSmtpServer } from '../../support/smtp-server';
import { IngestHarness } from '../ingest/harness';
import type { GatewayInstance } from '../ingest/harness';
import { deliveredBody, send } from '../ingest/http';
import { newSpreadsheetId, SA_EMAIL, secrets, serviceAccount } from '../spreadsheet-target/fixtures';

/*
 * Spec "Payload format rules / Feature interaction": one test per cell,
 * named after it. Requests go through the real gateway; what it publishes is delivered by the
 * real kinds — to a real SMTP server for email, to the local Google fake for spreadsheets.
 *
 * | Feature             | None                           | Query Parameters          | Base64 JSON                           |
 * |---------------------|--------------------------------|---------------------------|---------------------------------------|
 * | Field validation    | disabled                       | enabled (always an object)| only when the decoded root is an object|
 * | Captcha             | disabled                       | disabled                  | disabled                              |
 * | Spreadsheet columns | only synthetic field `payload` | all fields                | all fields                            |
 * | Email formatting    | empty payload                  | JSON formatting           | JSON formatting                       |
 * | Webhook forwarding  | empty body                     | JSON body                 | JSON body                             |
 */

let h: IngestHarness;
let gw: GatewayInstance;
let account: string;
let smtp: TestSmtpServer;
let transport: SmtpTransport;
let google: FakeGoogle;
let email: TransportKind;
let spreadsheet: TransportKind;
const sa = serviceAccount();

beforeAll(async () => {
  h = await IngestHarness.start('conf-interaction');
  gw = await h.gateway();
  account = await h.account();
  smtp = await startTestSmtpServer({ security: 'starttls', auth: { user: 'relay', pass: 'relay-pass-1' } });
  transport = createSmtpTransport({
    ...SMTP_DEFAULTS,
    host: '127.0.0.1',
    port: smtp.port,
    username: 'relay',
    password: 'relay-pass-1',
    from: 'relay@relay.example',
    ca: smtp.ca,
  });
  google = await startFakeGoogle();
  google.registerServiceAccount(SA_EMAIL, sa.publicKey);
  email = createEmailKind({ secrets, mail: { transport, from: 'relay@relay.example' } });
  spreadsheet = createSpreadsheetKind({ secrets, google: { send: google.send } });
});

afterAll(async () => {
  transport?.close();
  await smtp?.close();
  await google?.close();
  await h?.stop();
});

const b64 = (json: string): string => Buffer.from(json).toString('base64');
type Format = 'none' | 'query' | 'query_base64_json';
const endpointOf = (format: Format, extra: Record<string, unknown> = {}) =>
  h.endpoint(account, {
    payload_format: format,
    methods: ['GET'],
    query_param_name: 'p',
    query_param_required: false,
    ...extra,
  });

/** A GET with `query` to a fresh endpoint of `format`; the delivery the gateway published. */
async function published(format: Format, query: string): Promise<DeliveryMessageV1> {
  const id = await endpointOf(format);
  expect((await send(gw, id, { method: 'GET', query })).status).toBe(202);
  const [d] = await eventually(async () => h.deliveriesOf(id).length === 1 && h.deliveriesOf(id));
  return d!;
}

async function emailed(d: DeliveryMessageV1) {
  const before = smtp.received.length;
  const config = email.validateConfig({ to: ['ops@example.com'], subject: 'cell' });
  if (!config.ok) throw new Error(JSON.stringify(config.errors));
  expect(await email.deliver(config.value, d)).toEqual({ result: 'success', status: 250 });
  return (await smtp.waitFor(before + 1))[before]!.parsed;
}

async function rowsAfter(d: DeliveryMessageV1) {
  const id = newSpreadsheetId();
  google.addSpreadsheet(id, { sharedWith: [SA_EMAIL] });
  const config = spreadsheet.validateConfig({ spreadsheet_id: id, service_account_key: sa.keyFile });
  if (!config.ok) throw new Error(JSON.stringify(config.errors));
  expect(await spreadsheet.deliver(config.value, d)).toEqual({ result: 'success', status: 200 });
  return google.rows(id);
}

describe('Feature interaction: Field validation', () => {
  const rule = [{ path: 'id', required: true }];
  it('Field validation × None: disabled', async () => {
    expect(
      (await send(gw, await endpointOf('none', { field_rules: rule }), { method: 'GET', query: 'x=1' })).status,
    ).toBe(202);
  });
  it('Field validation × Query Parameters: enabled (always an object)', async () => {
    const id = await endpointOf('query', { field_rules: rule });
    expect((await send(gw, id, { method: 'GET', query: 'x=1' })).json.code).toBe('field_validation_failed');
    expect((await send(gw, id, { method: 'GET', query: 'id=1' })).status).toBe(202);
  });
  it('Field validation × Base64 JSON: only when the decoded root is an object', async () => {
    const id = await endpointOf('query_base64_json', { field_rules: rule });
    expect((await send(gw, id, { method: 'GET', query: `p=${b64('{"x":1}')}` })).json.code).toBe(
      'field_validation_failed',
    );
    expect((await send(gw, id, { method: 'GET', query: `p=${b64('[{"x":1}]')}` })).status).toBe(202);
  });
});

describe('Feature interaction: Captcha', () => {
  // a verify URL nothing listens on: if captcha ran, the request would fail
  const captcha = () => ({
    provider: 'turnstile' as const,
    secret: h.seal('s'),
    verify_url: 'http://127.0.0.1:9/siteverify',
  });
  it.each([
    ['None', 'none'],
    ['Query Parameters', 'query'],
    ['Base64 JSON', 'query_base64_json'],
  ] as const)('Captcha × %s: disabled', async (_name, format) => {
    const id = await endpointOf(format, { captcha: captcha() });
    expect((await send(gw, id, { method: 'GET', query: 'cf-turnstile-response=x' })).status).toBe(202);
  });
});

describe('Feature interaction: Spreadsheet columns', () => {
  it('Spreadsheet columns × None: only synthetic field `payload`', async () => {
    const d = await published('none', 'a=1');
    expect(await rowsAfter(d)).toEqual([['relay_delivery_id', 'payload'], [d.delivery_id]]);
  });
  it('Spreadsheet columns × Query Parameters: all fields', async () => {
    const d = await published('query', 'a=1&b=x&b=y&c');
    expect(await rowsAfter(d)).toEqual([
      ['relay_delivery_id', 'a', 'b', 'c'],
      [d.delivery_id, '1', '["x","y"]'],
    ]);
  });
  it('Spreadsheet columns × Base64 JSON: all fields', async () => {
    const d = await published('query_base64_json', `p=${b64('{"order":7,"items":[1,2],"ok":true}')}`);
    expect(await rowsAfter(d)).toEqual([
      ['relay_delivery_id', 'order', 'items', 'ok'],
      [d.delivery_id, 7, '[1,2]', true],
    ]);
  });
});

describe('Feature interaction: Email formatting', () => {
  it('Email formatting × None: empty payload', async () => {
    const mail = await emailed(await published('none', 'a=1'));
    expect(mail.text ?? '').toBe('');
    expect(mail.html).toBe(false);
  });
  it('Email formatting × Query Parameters: JSON formatting', async () => {
    const mail = await emailed(await published('query', 'a=1&b=x&b=y'));
    expect(mail.text).toBe('{\n  "a": "1",\n  "b": [\n    "x",\n    "y"\n  ]\n}');
    expect(mail.html).toContain(
      '<pre style="font-family:monospace;white-space:pre-wrap">{\n  &quot;a&quot;: &quot;1&quot;,',
    );
  });
  it('Email formatting × Base64 JSON: JSON formatting', async () => {
    const mail = await emailed(await published('query_base64_json', `p=${b64('{"order":{"id":7}}')}`));
    expect(mail.text).toBe('{\n  "order": {\n    "id": 7\n  }\n}');
    expect(mail.html).toContain('&quot;order&quot;: {');
  });
});

describe('Feature interaction: Webhook forwarding', () => {
  it('Webhook forwarding × None: empty body', async () => {
    const d = await published('none', 'a=1');
    expect([d.payload.content_type, deliveredBody(d)]).toEqual([null, '']);
  });
  it('Webhook forwarding × Query Parameters: JSON body', async () => {
    const d = await published('query', 'a=1');
    expect([d.payload.content_type, deliveredBody(d)]).toEqual(['application/json', '{"a":"1"}']);
  });
  it('Webhook forwarding × Base64 JSON: JSON body', async () => {
    const d = await published('query_base64_json', `p=${b64('{"a":1}')}`);
    expect([d.payload.content_type, deliveredBody(d)]).toEqual(['application/json', '{"a":1}']);
  });
});
