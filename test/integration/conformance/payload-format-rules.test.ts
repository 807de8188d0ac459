import { eventually } from '../../support/infra';
import { IngestHarness } from '../ingest/harness';
import type { GatewayInstance } from '../ingest/harness';
import { deliveredBody, send } from '../ingest/http';
import type { Send } from '../ingest/http';

/** Spec "Payload format rules": what each format makes of a request, and the feature interaction table. */
let h: IngestHarness;
let gw: GatewayInstance;
let account: string;

beforeAll(async () => {
  h = await IngestHarness.start('conf-payload');
  gw = await h.gateway();
  account = await h.account();
});

afterAll(async () => {
  await h?.stop();
});

/** Sends one request to a fresh endpoint and returns what its webhook target would receive. */
async function delivered(
  fields: Parameters<IngestHarness['endpoint']>[1],
  init: Send,
): Promise<{ contentType: string | null; body: string }> {
  const id = await h.endpoint(account, { methods: ['GET', 'POST', 'PUT'], ...fields });
  const res = await send(gw, id, init);
  expect(res.status).toBe(202);
  const [d] = await eventually(async () => h.deliveriesOf(id).length === 1 && h.deliveriesOf(id));
  return { contentType: d!.payload.content_type, body: deliveredBody(d!) };
}

const b64 = (json: string): string => Buffer.from(json).toString('base64');

describe('None (ignore body)', () => {
  it('"body ignored for any content type; payload is empty (webhook target gets an empty body)"', async () => {
    for (const contentType of ['application/json', 'image/png', 'multipart/form-data; boundary=x']) {
      expect(
        await delivered({ payload_format: 'none' }, { headers: { 'content-type': contentType }, body: 'anything {' }),
      ).toEqual({ contentType: null, body: '' });
    }
  });

  it('"Field validation and captcha disabled"', async () => {
    const id = await h.endpoint(account, {
      payload_format: 'none',
      field_rules: [{ path: 'id', required: true }],
      captcha: { provider: 'hcaptcha', secret: h.seal('s'), verify_url: 'http://127.0.0.1:9/never' },
    });
    expect((await send(gw, id, { body: '{}' })).status).toBe(202);
  });
});

describe('Query Parameters: "all query parameters become a flat JSON object"', () => {
  it.each([
    [
      'single value (text, number, boolean) → string',
      'name=Ada&age=36&active=true',
      { name: 'Ada', age: '36', active: 'true' },
    ],
    ['repeated name → array of strings in order', 'tag=b&tag=a', { tag: ['b', 'a'] }],
    ['empty value or name without `=` → empty string', 'empty=&bare', { empty: '', bare: '' }],
    ['percent-encoded → decoded string', 'q=caf%C3%A9%20au%20lait', { q: 'café au lait' }],
    ['no parameters → `{}`', '', {}],
  ])('%s', async (_row, query, object) => {
    const got = await delivered({ payload_format: 'query' }, { method: 'GET', query });
    expect(got.contentType).toBe('application/json');
    expect(JSON.parse(got.body)).toEqual(object);
  });
});

describe('Query Parameters (Base64 JSON)', () => {
  const fields = {
    payload_format: 'query_base64_json' as const,
    query_param_name: 'payload',
    query_param_required: true,
  };

  it.each([
    ['an object', '{"a":{"b":[1,2]}}'],
    ['an array', '[1,"two",null]'],
    ['a scalar', '"just a string"'],
  ])('"The decoded JSON is passed to all targets unchanged": %s', async (_name, json) => {
    expect(await delivered(fields, { method: 'GET', query: `payload=${b64(json)}` })).toEqual({
      contentType: 'application/json',
      body: json,
    });
  });

  it('"Standard and URL-safe alphabets (`-` and `_` for `+` and `/`) are accepted; an unescaped `+` in the value is accepted"', async () => {
    const json = '{"k":"~~~???>>>"}';
    const standard = b64(json);
    expect(standard).toMatch(/[+/]/);
    const urlSafe = standard.replace(/\+/g, '-').replace(/\//g, '_');
    expect((await delivered(fields, { method: 'GET', query: `payload=${standard}` })).body).toBe(json);
    expect((await delivered(fields, { method: 'GET', query: `payload=${urlSafe}` })).body).toBe(json);
  });

  it('"If the parameter is absent: with the required control on, 400 MALFORMED_QUERY_PARAM"', async () => {
    const id = await h.endpoint(account, { ...fields, methods: ['GET'] });
    const res = await send(gw, id, { method: 'GET', query: 'other=1' });
    expect([res.status, res.json.code]).toEqual([400, 'malformed_query_param']);
    expect((await h.waitForRows(id, 1))[0]!.outcome).toBe('MALFORMED_QUERY_PARAM');
  });

  it('"with it off, an empty payload is used"', async () => {
    expect(await delivered({ ...fields, query_param_required: false }, { method: 'GET' })).toEqual({
      contentType: null,
      body: '',
    });
  });
});

describe('"For the three formats None, Query Parameters and Base64 JSON the request body is ignored for any method and any content type, and every Content-Type is accepted"', () => {
  it.each(['none', 'query', 'query_base64_json'] as const)('%s', async (format) => {
    const id = await h.endpoint(account, {
      payload_format: format,
      methods: ['POST', 'PUT'],
      query_param_name: 'p',
      query_param_required: false,
    });
    for (const method of ['POST', 'PUT']) {
      for (const contentType of ['application/xml', 'application/vnd.custom+json', 'multipart/form-data; boundary=z']) {
        expect(
          (await send(gw, id, { method, headers: { 'content-type': contentType }, body: '<not json' })).status,
        ).toBe(202);
      }
    }
  });
});

describe('Feature interaction', () => {
  const rule = [{ path: 'id', required: true }];

  it('"Field validation: None disabled | Query Parameters enabled (always an object) | Base64 JSON only when the decoded root is an object"', async () => {
    const none = await h.endpoint(account, { payload_format: 'none', methods: ['GET'], field_rules: rule });
    const query = await h.endpoint(account, { payload_format: 'query', methods: ['GET'], field_rules: rule });
    const base64 = await h.endpoint(account, {
      payload_format: 'query_base64_json',
      methods: ['GET'],
      query_param_name: 'p',
      field_rules: rule,
    });
    expect((await send(gw, none, { method: 'GET' })).status).toBe(202);
    expect((await send(gw, query, { method: 'GET', query: 'x=1' })).json.code).toBe('field_validation_failed');
    expect((await send(gw, query, { method: 'GET', query: 'id=1' })).status).toBe(202);
    expect((await send(gw, base64, { method: 'GET', query: `p=${b64('{"x":1}')}` })).json.code).toBe(
      'field_validation_failed',
    );
    expect((await send(gw, base64, { method: 'GET', query: `p=${b64('[{"x":1}]')}` })).status).toBe(202);
  });

  it('"Captcha: disabled | disabled | disabled" for None, Query Parameters and Base64 JSON', async () => {
    // a verify URL nothing listens on: if captcha ran, the request would fail
    const captcha = {
      provider: 'turnstile' as const,
      secret: h.seal('s'),
      verify_url: 'http://127.0.0.1:9/siteverify',
    };
    for (const format of ['none', 'query', 'query_base64_json'] as const) {
      const id = await h.endpoint(account, {
        payload_format: format,
        methods: ['GET'],
        captcha,
        query_param_name: 'p',
        query_param_required: false,
      });
      expect((await send(gw, id, { method: 'GET', query: 'cf-turnstile-response=x' })).status).toBe(202);
    }
  });

  it('"Webhook forwarding: None empty body | Query Parameters JSON body | Base64 JSON JSON body"', async () => {
    expect((await delivered({ payload_format: 'none' }, { method: 'GET', query: 'a=1' })).body).toBe('');
    expect((await delivered({ payload_format: 'query' }, { method: 'GET', query: 'a=1' })).body).toBe('{"a":"1"}');
    expect(
      (
        await delivered(
          { payload_format: 'query_base64_json', query_param_name: 'p' },
          { method: 'GET', query: `p=${b64('{"a":1}')}` },
        )
      ).body,
    ).toBe('{"a":1}');
  });
});

describe('Events: "the delivery body is the parsed payload"', () => {
  it('form: the parsed flat object (same shape rules as Query Parameters), as a JSON body', async () => {
    const got = await delivered(
      { payload_format: 'form' },
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=%20&tag=x&tag=y&bare' },
    );
    expect(got.contentType).toBe('application/json');
    expect(JSON.parse(got.body)).toEqual({ a: '1', b: ' ', tag: ['x', 'y'], bare: '' });
  });

  it.each([
    ['JSON', 'json', 'application/json; charset=utf-8', '{ "spaced" : true }'],
    ['XML', 'xml', 'text/xml', '<?xml version="1.0"?><a x="1">t</a>'],
    ['text', 'text', 'text/plain', '  plain text\n'],
  ] as const)(
    '%s: a document is its own serialisation — the target receives the bytes and Content-Type as sent',
    async (_name, format, contentType, body) => {
      expect(await delivered({ payload_format: format }, { headers: { 'content-type': contentType }, body })).toEqual({
        contentType,
        body,
      });
    },
  );
});
