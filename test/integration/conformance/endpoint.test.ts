import { eventually } from '../../support/infra';
import { FakeCaptchaVerifier } from '../ingest/fake-captcha';
import { IngestHarness } from '../ingest/harness';
import type { GatewayInstance } from '../ingest/harness';
import { deliveredBody, send } from '../ingest/http';

/** Spec "Resources and their fields / Endpoint" and "States and transitions / Endpoint availability". */
let h: IngestHarness;
let gw: GatewayInstance;
let account: string;
let verifier: FakeCaptchaVerifier;

beforeAll(async () => {
  h = await IngestHarness.start('conf-endpoint');
  gw = await h.gateway();
  account = await h.account();
  verifier = await FakeCaptchaVerifier.start();
});

afterAll(async () => {
  await h?.stop();
  await verifier?.close();
});

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const xml = { 'content-type': 'application/xml' };

describe('Endpoint fields', () => {
  it('"method: HTTP method the endpoint accepts (POST, GET, etc.)"', async () => {
    const id = await h.endpoint(account, { methods: ['GET', 'PUT'], payload_format: 'query' });
    expect((await send(gw, id, { method: 'GET', query: 'a=1' })).status).toBe(202);
    expect((await send(gw, id, { method: 'PUT', query: 'a=1' })).status).toBe(202);
    const post = await send(gw, id, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, PUT');
  });

  it('"required headers: list of header names (and expected values) every request must carry"', async () => {
    const id = await h.endpoint(account, {
      required_headers: [{ name: 'X-Source', value: 'erp' }, { name: 'X-Tenant' }],
    });
    expect((await send(gw, id, { headers: { 'x-source': 'erp', 'x-tenant': 'any' } })).status).toBe(202);
    expect((await send(gw, id, { headers: { 'x-source': 'erp' } })).status).toBe(400);
    expect((await send(gw, id, { headers: { 'x-source': 'ERP', 'x-tenant': 'a' } })).status).toBe(400);
  });

  it('"body filters: rules on the raw body; all rules must pass"', async () => {
    const id = await h.endpoint(account, {
      body_filters: [
        { kind: 'contains', value: '"paid"' },
        { kind: 'not_regex', pattern: 'test_mode.{0,3}true' },
      ],
    });
    expect((await send(gw, id, { body: '{"status":"paid"}' })).status).toBe(202);
    const failed = await send(gw, id, { body: '{"status":"paid","test_mode": true}' });
    expect(failed.json).toEqual({
      code: 'request_body_filter_failed',
      message: expect.stringContaining('body filter 2'),
    });
    expect((await h.waitForRows(id, 2)).map((r) => r.outcome)).toEqual(['ACCEPTED', 'REQUEST_BODY_FILTER_FAILED']);
  });

  it.each([
    [
      '"Applied to the raw decoded body for JSON"',
      'json',
      { 'content-type': 'application/json' },
      '{"a":"caf\u00e9"}',
      '',
      'café',
    ],
    ['"… XML and text"', 'text', { 'content-type': 'text/plain' }, 'hello café', '', 'café'],
    ['"to the raw form body for form endpoints" (still percent-encoded)', 'form', form, 'q=caf%C3%A9', '', 'caf%C3%A9'],
    ['"to the raw query string for query formats"', 'query', {}, '', 'q=caf%C3%A9', 'caf%C3%A9'],
  ] as const)('body filters are %s', async (_rule, format, headers, body, query, needle) => {
    const id = await h.endpoint(account, {
      payload_format: format,
      methods: ['POST'],
      body_filters: [{ kind: 'contains', value: needle }],
    });
    expect((await send(gw, id, { headers, body, query })).status).toBe(202);
    const other = await h.endpoint(account, {
      payload_format: format,
      methods: ['POST'],
      body_filters: [{ kind: 'contains', value: `${needle}!` }],
    });
    expect((await send(gw, other, { headers, body, query })).status).toBe(400);
  });

  it('"field validation rules: type tests, required fields (a null value fails), regex patterns"', async () => {
    const id = await h.endpoint(account, {
      field_rules: [
        { path: 'order.id', type: 'integer', required: true },
        { path: 'email', pattern: '^[^@]+@[^@]+$' },
      ],
    });
    expect((await send(gw, id, { body: '{"order":{"id":7},"email":"a@b"}' })).status).toBe(202);
    for (const body of ['{"order":{"id":null}}', '{"order":{"id":"7"}}', '{"order":{"id":7},"email":"nope"}']) {
      const res = await send(gw, id, { body });
      expect([res.status, res.json.code]).toEqual([400, 'field_validation_failed']);
    }
  });

  it('"Enabled: on/off control": off → rejected with no row; on again → processed', async () => {
    const id = await h.endpoint(account, { enabled: false });
    expect((await send(gw, id)).status).toBe(404);
    await h.expectNoRows(id, gw);
    await h.update(id, { enabled: true });
    expect((await send(gw, id)).status).toBe(202);
  });

  it('"paused: manual pause, or a scheduled maintenance-window pause; can be resumed"', async () => {
    const id = await h.endpoint(account, { paused: true });
    expect((await send(gw, id)).status).toBe(503);
    await h.update(id, { paused: false });
    expect((await send(gw, id)).status).toBe(202);
    const now = Date.now();
    await h.update(id, {
      maintenance_windows: [
        { starts_at: new Date(now - 60_000).toISOString(), ends_at: new Date(now + 3_600_000).toISOString() },
      ],
    });
    expect((await send(gw, id)).status).toBe(503);
  });

  it('"per-endpoint rate limit: requests per minute"', async () => {
    const id = await h.endpoint(account, { rate_limit_per_minute: 3 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(gw, id)).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
  });

  it('"outputs: the attached targets": every enabled target gets the event, none → accepted and logged', async () => {
    const two = await h.endpoint(account, {}, 2);
    expect((await send(gw, two)).status).toBe(202);
    await eventually(async () => h.deliveriesOf(two).length === 2);
    const none = await h.endpoint(account, {}, 0);
    expect((await send(gw, none)).status).toBe(202);
    expect((await h.waitForRows(none, 1))[0]).toMatchObject({ outcome: 'ACCEPTED', target_count: 0 });
  });

  describe('"captcha: optional verification of a token found in a JSON, form or XML body"', () => {
    const captcha = () => ({
      provider: 'hcaptcha' as const,
      secret: h.seal(verifier.secret),
      verify_url: verifier.url(),
    });

    it.each([
      [
        'JSON',
        'json',
        { 'content-type': 'application/json' },
        (t: string) => JSON.stringify({ 'h-captcha-response': t, name: 'x' }),
      ],
      ['form', 'form', form, (t: string) => `name=x&h-captcha-response=${t}`],
      [
        'XML',
        'xml',
        xml,
        (t: string) => `<signup><name>x</name><h-captcha-response>${t}</h-captcha-response></signup>`,
      ],
    ] as const)(
      '%s: a verified token is accepted, a refused one gets 403 CAPTCHA_FAILED',
      async (_name, format, headers, body) => {
        const id = await h.endpoint(account, { payload_format: format, captcha: captcha() });
        expect((await send(gw, id, { headers, body: body(verifier.goodToken) })).status).toBe(202);
        const refused = await send(gw, id, { headers, body: body('forged') });
        expect([refused.status, refused.json.code]).toEqual([403, 'captcha_failed']);
        expect(verifier.calls.at(-1)).toMatchObject({
          secret: verifier.secret,
          response: 'forged',
          remoteip: '127.0.0.1',
        });
      },
    );

    it('a missing token gets 400 CAPTCHA_FAILED without calling the provider', async () => {
      const id = await h.endpoint(account, { captcha: captcha() });
      const before = verifier.calls.length;
      const res = await send(gw, id, { body: '{"name":"x"}' });
      expect([res.status, res.json.code]).toEqual([400, 'captcha_failed']);
      expect(verifier.calls.length).toBe(before);
    });

    it('the providers hCaptcha, reCAPTCHA and Turnstile read their own default field', async () => {
      for (const [provider, field] of [
        ['recaptcha', 'g-recaptcha-response'],
        ['turnstile', 'cf-turnstile-response'],
      ] as const) {
        const id = await h.endpoint(account, {
          captcha: { provider, secret: h.seal(verifier.secret), verify_url: verifier.url() },
        });
        expect((await send(gw, id, { body: JSON.stringify({ [field]: verifier.goodToken }) })).status).toBe(202);
      }
    });
  });

  it('"query parameter name" and "required parameter control" (Base64 JSON only)', async () => {
    const required = await h.endpoint(account, {
      payload_format: 'query_base64_json',
      query_param_name: 'data+set',
      query_param_required: true,
    });
    const b64 = Buffer.from('{"a":1}').toString('base64');
    expect((await send(gw, required, { query: `data%2Bset=${b64}` })).status).toBe(202);
    expect((await send(gw, required, { query: 'other=1' })).json.code).toBe('malformed_query_param');
    const optional = await h.endpoint(account, {
      payload_format: 'query_base64_json',
      query_param_name: 'd',
      query_param_required: false,
    });
    expect((await send(gw, optional, { query: 'other=1' })).status).toBe(202);
    await eventually(async () => h.deliveriesOf(optional).length === 1);
    expect(deliveredBody(h.deliveriesOf(optional)[0]!)).toBe('');
  });
});

describe('States and transitions: endpoint availability', () => {
  it('"Enabled → Disabled: requests are rejected, no activity row"', async () => {
    const id = await h.endpoint(account);
    expect((await send(gw, id)).status).toBe(202);
    await h.update(id, { enabled: false });
    expect((await send(gw, id)).status).toBe(404);
    await h.settle(gw);
    expect(h.rowsOf(id).map((r) => r.outcome)).toEqual(['ACCEPTED']);
  });

  it('"Enabled → Paused (manual pause or scheduled maintenance window starts): requests get the 503 endpoint_unavailable response, no activity row"', async () => {
    const manual = await h.endpoint(account, { paused: true });
    const now = Date.now();
    const window = await h.endpoint(account, {
      maintenance_windows: [
        { starts_at: new Date(now - 1000).toISOString(), ends_at: new Date(now + 3_600_000).toISOString() },
      ],
    });
    for (const id of [manual, window]) {
      const res = await send(gw, id);
      expect([res.status, res.headers.get('retry-after'), res.json.code]).toEqual([503, '60', 'endpoint_unavailable']);
    }
    await h.expectNoRows(manual, gw);
    await h.expectNoRows(window, gw);
  });

  it('"Paused (manual) → Enabled: Resume action"', async () => {
    const id = await h.endpoint(account, { paused: true });
    expect((await send(gw, id)).status).toBe(503);
    await h.update(id, { paused: false });
    expect((await send(gw, id)).status).toBe(202);
  });

  it('"Paused (scheduled) → Enabled: scheduled pause expires (time reached)", without anyone resuming it', async () => {
    const id = await h.endpoint(account, {
      maintenance_windows: [
        { starts_at: new Date(Date.now() - 1000).toISOString(), ends_at: new Date(Date.now() + 1500).toISOString() },
      ],
    });
    expect((await send(gw, id)).status).toBe(503);
    await eventually(async () => (await send(gw, id)).status === 202, 5000, 'the window to end');
  });
});
