import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { Webhook } from 'standardwebhooks';
import { ALWAYS_REMOVED, createWebhookKind, TargetConfigError } from '@relay/targets';
import type { WebhookConfig } from '@relay/targets';

const box = createSecretBox(`k1:${randomBytes(32).toString('base64')}`);
let uuids = 0;
const kind = createWebhookKind({
  secrets: box,
  uuid: () => `uuid-${++uuids}`,
  now: () => new Date('2025-01-02T03:04:05Z'),
});

function config(input: Record<string, unknown>): WebhookConfig {
  const r = kind.validateConfig({ url: 'https://hooks.example.com/in', ...input });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}

function delivery(over: Partial<DeliveryMessageV1> = {}, headers: Record<string, string> = {}): DeliveryMessageV1 {
  return {
    type: 'relay.delivery.v1',
    event_id: 'evt_1',
    delivery_id: 'dlv_1_a',
    attempt: 1,
    account_id: 'acc_1',
    endpoint_id: 'ep_1',
    target_id: 'tg_a',
    target_kind: 'webhook',
    received_at: '2025-01-02T03:04:00.000Z',
    request: { method: 'POST', source_ip: '203.0.113.9', headers, query: '' },
    payload: { content_type: 'application/json', body_base64: Buffer.from('{"a":1}').toString('base64') },
    ...over,
  };
}

const headersOf = (c: WebhookConfig, d = delivery()) => kind.buildRequest(c, d).headers;

describe('webhook request: header rules (spec "Forwarded request (outbound)")', () => {
  it.each([
    ['Bearer', { type: 'bearer', token: 'tok123' }, 'authorization', 'Bearer tok123'],
    [
      'Basic',
      { type: 'basic', username: 'user', password: 'p:ss' },
      'authorization',
      `Basic ${Buffer.from('user:p:ss').toString('base64')}`,
    ],
    ['API key', { type: 'api_key', header: 'X-Api-Key', key: 'k-1' }, 'x-api-key', 'k-1'],
  ])('header rule 1: %s outbound authentication adds its header', (_n, auth, name, value) => {
    expect(headersOf(config({ auth }))[name]).toBe(value);
  });

  it('header rule 1: no auth adds no credential header', () => {
    expect(
      headersOf(config({ forward_headers: { mode: 'all' } }), delivery({}, { authorization: 'Bearer sender' })),
    ).not.toHaveProperty('authorization');
  });

  it('header rule 1: the auth header wins over a forwarded header of the same name', () => {
    const c = config({ auth: { type: 'api_key', header: 'X-Api-Key', key: 'ours' }, forward_headers: { mode: 'all' } });
    expect(headersOf(c, delivery({}, { 'x-api-key': 'theirs' }))['x-api-key']).toBe('ours');
  });

  it('header rule 2: a custom header wins over a forwarded header of the same name', () => {
    const c = config({ custom_headers: [{ name: 'X-Shop', value: 'custom' }], forward_headers: { mode: 'all' } });
    expect(headersOf(c, delivery({}, { 'x-shop': 'forwarded', 'x-other': 'kept' }))).toMatchObject({
      'x-shop': 'custom',
      'x-other': 'kept',
    });
  });

  it('header rule 3: a custom header colliding with the auth header never reaches a request (refused at save)', () => {
    const r = kind.validateConfig({
      url: 'https://h.example/',
      auth: { type: 'bearer', token: 't' },
      custom_headers: [{ name: 'Authorization', value: 'x' }],
    });
    expect(r.ok).toBe(false);
  });

  it.each(ALWAYS_REMOVED)('always removed: %s is not forwarded', (name) => {
    const c = config({ forward_headers: { mode: 'all' } });
    // format None: Relay sets no Content-Type of its own that could mask a forwarded one
    const h = headersOf(
      c,
      delivery(
        { payload: { content_type: null, body_base64: '' } },
        { [name.toLowerCase()]: 'from-sender', 'x-kept': '1' },
      ),
    );
    expect(h['x-kept']).toBe('1');
    expect(h[name.toLowerCase()]).not.toBe('from-sender');
  });

  it('header rule 4 also applies to a named forwarding list (even one stored before validation)', () => {
    const c: WebhookConfig = { ...config({}), forward_headers: { mode: 'list', names: ['cookie', 'x-a'] } };
    expect(headersOf(c, delivery({}, { cookie: 'c=1', 'x-a': 'a' }))).toMatchObject({ 'x-a': 'a' });
    expect(headersOf(c, delivery({}, { cookie: 'c=1' }))).not.toHaveProperty('cookie');
  });

  it('header rule 5: endpoint-specific headers are absent because the gateway strips them; templates cannot read headers', () => {
    // request.headers carries only forwardable headers (contracts ForwardableRequest)
    const c = config({
      custom_headers: [{ name: 'X-T', value: '{{originating_ip}}|{{endpoint_id}}' }],
      forward_headers: { mode: 'list', names: ['x-hub-signature'] },
    });
    const h = headersOf(c, delivery({}, {}));
    expect(h).not.toHaveProperty('x-hub-signature');
    expect(h['x-t']).toBe('203.0.113.9|ep_1');
  });

  it('forwarding a named list skips a listed header absent from the request', () => {
    const c = config({ forward_headers: { mode: 'list', names: ['X-Present', 'X-Absent'] } });
    const h = headersOf(c, delivery({}, { 'x-present': 'p', 'x-unlisted': 'u' }));
    expect(h).toMatchObject({ 'x-present': 'p' });
    expect(h).not.toHaveProperty('x-absent');
    expect(h).not.toHaveProperty('x-unlisted');
  });

  it('forwarding none (the default) forwards no incoming header', () => {
    expect(headersOf(config({}), delivery({}, { 'x-a': 'a' }))).not.toHaveProperty('x-a');
  });
});

describe('webhook request: tracking headers, templates, body', () => {
  it('carries X-Relay-Event-Id, X-Relay-Delivery-Id and X-Relay-Attempt from the delivery', () => {
    expect(headersOf(config({}), delivery({ attempt: 3 }))).toMatchObject({
      'x-relay-event-id': 'evt_1',
      'x-relay-delivery-id': 'dlv_1_a',
      'x-relay-attempt': '3',
    });
  });

  it('renders template variables; {{uuid}} is fresh per attempt', () => {
    const c = config({
      custom_headers: [
        { name: 'X-T', value: '{{ uuid }}/{{event_id}}/{{delivery_id}}/{{target_id}}/{{received_at}}/{{attempt}}' },
      ],
    });
    const first = headersOf(c)['x-t'];
    expect(first).toMatch(/^uuid-\d+\/evt_1\/dlv_1_a\/tg_a\/2025-01-02T03:04:00.000Z\/1$/);
    expect(headersOf(c)['x-t']).not.toBe(first);
  });

  it('never emits CR/LF into a header value from a template variable', () => {
    const c = config({ custom_headers: [{ name: 'X-Ip', value: '{{originating_ip}}' }] });
    const d = delivery();
    d.request.source_ip = '1.2.3.4\r\nX-Injected: yes';
    expect(headersOf(c, d)['x-ip']).toBe('1.2.3.4X-Injected: yes');
  });

  it('decrypts sensitive custom headers only when building the request', () => {
    const c = config({ custom_headers: [{ name: 'X-Secret-Token', value: 'abc-{{attempt}}' }] });
    expect(c.custom_headers[0]?.value).toMatch(/^enc:v1:/);
    expect(headersOf(c)['x-secret-token']).toBe('abc-1');
  });

  it('format None delivers an empty body with no Content-Type', () => {
    const req = kind.buildRequest(config({}), delivery({ payload: { content_type: null, body_base64: '' } }));
    expect(req.body).toHaveLength(0);
    expect(req.headers).not.toHaveProperty('content-type');
  });

  it('query formats deliver the JSON payload with Content-Type application/json', () => {
    const json = '{"a":"1","b":["x","y"]}';
    const req = kind.buildRequest(
      config({}),
      delivery({ payload: { content_type: 'application/json', body_base64: Buffer.from(json).toString('base64') } }),
    );
    expect(req.body.toString()).toBe(json);
    expect(req.headers['content-type']).toBe('application/json');
  });

  it('signs with Standard Webhooks when configured (webhook-id is the delivery id)', () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const req = kind.buildRequest(config({ signing: { standard_webhooks: true, secret } }), delivery());
    expect(req.headers['webhook-id']).toBe('dlv_1_a');
    expect(req.headers['webhook-timestamp']).toBe(String(Date.parse('2025-01-02T03:04:05Z') / 1000));
    const verifier = new Webhook(secret);
    jest.useFakeTimers({ now: new Date('2025-01-02T03:04:06Z') });
    try {
      expect(verifier.verify(req.body.toString(), req.headers)).toEqual({ a: 1 });
    } finally {
      jest.useRealTimers();
    }
  });

  it('Enforce HTTPS is checked again at delivery time', () => {
    const c: WebhookConfig = { ...config({}), url: 'http://hooks.example.com/in' };
    expect(() => kind.buildRequest(c, delivery())).toThrow(expect.objectContaining({ code: 'HTTPS_REQUIRED' }));
  });

  it('a secret no configured key opens is a TargetConfigError, not a crash with the ciphertext', () => {
    const c = config({ auth: { type: 'bearer', token: 't' } });
    const other = createWebhookKind({ secrets: createSecretBox(`k2:${randomBytes(32).toString('base64')}`) });
    expect(() => other.buildRequest(c, delivery())).toThrow(TargetConfigError);
    expect(() => other.buildRequest(c, delivery())).toThrow(/SECRETS_KEYS|not configured/);
  });
});
