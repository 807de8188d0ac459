import { createHmac } from 'node:crypto';
import { eventually } from '../../support/infra';
import { IngestHarness } from '../ingest/harness';
import type { GatewayInstance } from '../ingest/harness';
import { send } from '../ingest/http';

/** Spec "Endpoints / Ingest: {base_url}/relay/<endpoint_id>" and "Forwarded request" rule 5. */
let h: IngestHarness;
let gw: GatewayInstance;
let account: string;

beforeAll(async () => {
  h = await IngestHarness.start('conf-ingest');
  gw = await h.gateway();
  account = await h.account();
});

afterAll(async () => {
  await h?.stop();
});

describe('Ingest: {base_url}/relay/<endpoint_id>', () => {
  it('"method: the one(s) configured on the endpoint"', async () => {
    const id = await h.endpoint(account, { methods: ['PUT', 'PATCH'] });
    expect((await send(gw, id, { method: 'PUT' })).status).toBe(202);
    expect((await send(gw, id, { method: 'PATCH' })).status).toBe(202);
    expect((await send(gw, id, { method: 'POST' })).status).toBe(405);
  });

  it.each(['none', 'query', 'query_base64_json'] as const)(
    '"GET and HEAD may be used only with the formats None, Query Parameters, Query Parameters (Base64 JSON)": %s accepts them',
    async (format) => {
      const id = await h.endpoint(account, {
        methods: ['GET', 'HEAD'],
        payload_format: format,
        query_param_name: 'd',
        query_param_required: false,
      });
      expect((await send(gw, id, { method: 'GET' })).status).toBe(202);
      expect((await send(gw, id, { method: 'HEAD' })).status).toBe(202);
    },
  );

  it('"GET and HEAD may be used only with …": a stored JSON endpoint listing GET still refuses it with 405', async () => {
    const id = await h.endpoint(account, { methods: ['GET', 'POST'], payload_format: 'json' });
    const res = await send(gw, id, { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it.each(['PUT', 'PATCH', 'DELETE', 'POST'])(
    '"All other methods work with all formats, including the query formats": %s on a query endpoint',
    async (method) => {
      const id = await h.endpoint(account, { methods: [method], payload_format: 'query' });
      expect(
        (
          await send(gw, id, {
            method,
            query: 'a=1',
            headers: { 'content-type': 'application/octet-stream' },
            body: 'ignored',
          })
        ).status,
      ).toBe(202);
    },
  );

  it.each([
    ['application/json', 'json', '{"a":1}'],
    ['application/x-www-form-urlencoded', 'form', 'a=1'],
    ['application/xml', 'xml', '<a>1</a>'],
    ['text/xml', 'xml', '<a>1</a>'],
    ['text/plain', 'text', 'a'],
  ] as const)('"Accepted content types": %s', async (contentType, format, body) => {
    const id = await h.endpoint(account, { payload_format: format });
    expect((await send(gw, id, { headers: { 'content-type': contentType }, body })).status).toBe(202);
  });

  it('"multipart/form-data and file uploads are rejected; send metadata or a file URL instead"', async () => {
    const id = await h.endpoint(account, { payload_format: 'form' });
    const res = await send(gw, id, {
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nhi\r\n--x--\r\n',
    });
    expect([res.status, res.json.code]).toEqual([415, 'unsupported_media_type']);
    expect(res.json.message).toMatch(/URL of the file/);
  });

  it('"request headers: … Content-Type matching the payload format": a mismatch gets 415', async () => {
    const id = await h.endpoint(account, { payload_format: 'xml' });
    expect((await send(gw, id, { body: '{"a":1}' })).status).toBe(415);
    expect((await h.waitForRows(id, 1))[0]!.outcome).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('"success response: HTTP 202, JSON body with one string field `message` carrying the constant text Payload received. The body carries no plan, quota, reset date, billing or account data"', async () => {
    const id = await h.endpoint(account);
    const res = await send(gw, id);
    expect(res.status).toBe(202);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.text).toBe('{"message":"Payload received"}');
    expect([...res.headers.keys()].filter((k) => /quota|limit|plan|account|billing/i.test(k))).toEqual([]);
  });

  it('"retry response: may carry header Retry-After (whole seconds)"', async () => {
    const id = await h.endpoint(account, { rate_limit_per_minute: 1 });
    await send(gw, id);
    const res = await send(gw, id);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  });

  it('HEAD gets the status and headers, never a body', async () => {
    const id = await h.endpoint(account, { methods: ['HEAD'], payload_format: 'none', rate_limit_per_minute: 1 });
    const ok = await send(gw, id, { method: 'HEAD' });
    const limited = await send(gw, id, { method: 'HEAD' });
    expect([ok.status, ok.text, limited.status, limited.text, limited.headers.get('retry-after') !== null]).toEqual([
      202,
      '',
      429,
      '',
      true,
    ]);
  });
});

describe('Forwarded request (outbound), applied before the event is published', () => {
  it('"5. Also removed: the endpoint\'s required-header names, the inbound API key header"', async () => {
    const id = await h.endpoint(account, {
      inbound_auth: { type: 'API_KEY', header: 'X-Api-Key', keys: [h.seal('key-1')] },
      required_headers: [{ name: 'X-Tenant', value: 't1' }],
    });
    expect((await send(gw, id, { headers: { 'x-api-key': 'key-1', 'x-tenant': 't1', 'x-trace': 'abc' } })).status).toBe(
      202,
    );
    const [d] = await eventually(async () => h.deliveriesOf(id).length === 1 && h.deliveriesOf(id));
    expect(d!.request.headers).toMatchObject({ 'x-trace': 'abc' });
    expect(Object.keys(d!.request.headers).filter((k) => ['x-api-key', 'x-tenant'].includes(k))).toEqual([]);
  });

  it('"5. … the inbound HMAC signature header, and the timestamp header used by the chat-service HMAC preset"', async () => {
    const id = await h.endpoint(account, {
      inbound_auth: { type: 'HMAC', preset: 'slack', secrets: [h.seal('slack-secret')] },
    });
    const body = '{"type":"event_callback"}';
    const ts = String(Math.floor(Date.now() / 1000));
    const sig = `v0=${createHmac('sha256', 'slack-secret').update(`v0:${ts}:${body}`).digest('hex')}`;
    expect(
      (
        await send(gw, id, {
          body,
          headers: { 'x-slack-signature': sig, 'x-slack-request-timestamp': ts, 'x-slack-retry-num': '1' },
        })
      ).status,
    ).toBe(202);
    const [d] = await eventually(async () => h.deliveriesOf(id).length === 1 && h.deliveriesOf(id));
    expect(Object.keys(d!.request.headers).filter((k) => k.startsWith('x-slack'))).toEqual(['x-slack-retry-num']);
  });

  it('"4. These headers are always removed from forwarding: … Authorization, Cookie …"', async () => {
    const id = await h.endpoint(account, { inbound_auth: { type: 'BEARER', tokens: [h.seal('tok')] } });
    expect(
      (
        await send(gw, id, {
          headers: { authorization: 'Bearer tok', cookie: 'a=b', 'x-relay-attempt': '9', 'x-keep': '1' },
        })
      ).status,
    ).toBe(202);
    const [d] = await eventually(async () => h.deliveriesOf(id).length === 1 && h.deliveriesOf(id));
    expect(d!.request.headers['x-keep']).toBe('1');
    expect(
      Object.keys(d!.request.headers).filter((k) =>
        ['authorization', 'cookie', 'x-relay-attempt', 'host', 'content-type', 'content-length'].includes(k),
      ),
    ).toEqual([]);
  });
});
