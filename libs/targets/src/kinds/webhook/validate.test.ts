import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import type { FieldError } from '@relay/contracts';
import { createWebhookKind } from './index';

const kind = createWebhookKind({ secrets: createSecretBox(`k1:${randomBytes(32).toString('base64')}`) });
const URL_OK = 'https://hooks.example.com/in';
const WHSEC = `whsec_${randomBytes(32).toString('base64')}`;

function errorsOf(input: unknown): FieldError[] {
  const r = kind.validateConfig(input);
  return r.ok ? [] : r.errors;
}
const fieldsOf = (input: unknown) => errorsOf(input).map((e) => e.field);

describe('webhook config validation (spec "Relay target" → Webhook URL)', () => {
  it('applies the defaults: Enforce HTTPS on, no auth, no custom headers, forwarding none, unsigned', () => {
    const r = kind.validateConfig({ url: URL_OK });
    expect(r).toEqual({
      ok: true,
      value: {
        url: URL_OK,
        enforce_https: true,
        auth: { type: 'none' },
        custom_headers: [],
        forward_headers: { mode: 'none' },
        signing: null,
        tls: null,
      },
    });
  });

  it('Enforce HTTPS on: a non-HTTPS URL is rejected at save time', () => {
    expect(errorsOf({ url: 'http://hooks.example.com/' })).toEqual([
      { field: 'config.url', message: 'url must use https while Enforce HTTPS is on' },
    ]);
    expect(kind.validateConfig({ url: 'http://hooks.example.com/', enforce_https: false }).ok).toBe(true);
  });

  it.each([
    ['missing', undefined],
    ['relative', '/in'],
    ['of another scheme', 'ftp://example.com/'],
    ['carrying credentials', 'https://user:pw@example.com/'],
    ["in got's unix-socket form", 'http://unix:/var/run/docker.sock:/x'],
  ])('rejects a url that is %s', (_name, url) => {
    expect(fieldsOf({ url, enforce_https: false })).toEqual(['config.url']);
  });

  it('rejects unknown settings by name', () => {
    expect(fieldsOf({ url: URL_OK, enforce_http: false })).toEqual(['config.enforce_http']);
  });

  it.each([
    [{ type: 'bearer' }, ['config.auth.token']],
    [{ type: 'basic', username: 'a:b' }, ['config.auth.username', 'config.auth.password']],
    [{ type: 'api_key', header: 'bad header', key: 'k' }, ['config.auth.header']],
    [{ type: 'api_key', header: 'X-Api-Key' }, ['config.auth.key']],
    [{ type: 'api_key', header: 'Content-Type', key: 'k' }, ['config.auth.header']],
    [{ type: 'digest' }, ['config.auth.type']],
  ])('outbound auth %j is rejected naming %j', (auth, fields) => {
    expect(fieldsOf({ url: URL_OK, auth })).toEqual(fields);
  });

  it('at most 25 custom headers (spec "Limits")', () => {
    const headers = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `X-H${i}`, value: 'v' }));
    expect(kind.validateConfig({ url: URL_OK, custom_headers: headers(25) }).ok).toBe(true);
    expect(errorsOf({ url: URL_OK, custom_headers: headers(26) })).toEqual([
      { field: 'config.custom_headers', message: 'at most 25 custom headers are allowed (got 26)' },
    ]);
  });

  it.each([
    { type: 'bearer', auth: { type: 'bearer', token: 't' }, name: 'authorization' },
    { type: 'basic', auth: { type: 'basic', username: 'u', password: 'p' }, name: 'AUTHORIZATION' },
    { type: 'api_key', auth: { type: 'api_key', header: 'X-Api-Key', key: 'k' }, name: 'x-api-key' },
  ])(
    'header rule 3: a custom header may not use the name of an authentication header ($type auth, custom "$name")',
    ({ auth, name }) => {
      const errors = errorsOf({
        url: URL_OK,
        auth,
        custom_headers: [
          { name: 'X-Ok', value: '1' },
          { name, value: 'x' },
        ],
      });
      expect(errors).toEqual([
        { field: 'config.custom_headers[1].name', message: expect.stringContaining('header rule 3') },
      ]);
    },
  );

  it('header rule 3 applies only to the configured auth header: Authorization is a valid custom header without auth', () => {
    expect(
      kind.validateConfig({ url: URL_OK, custom_headers: [{ name: 'Authorization', value: 'Token abc' }] }).ok,
    ).toBe(true);
  });

  it.each([
    'Host',
    'Content-Length',
    'Content-Type',
    'Transfer-Encoding',
    'Connection',
    'TE',
    'Proxy-Authorization',
    'X-Relay-Event-Id',
    'X-Relay-Forward-Chain',
    'X-Relay-Anything',
  ])('header rule 4: a custom header cannot emit %s', (name) => {
    expect(fieldsOf({ url: URL_OK, custom_headers: [{ name, value: 'x' }] })).toEqual([
      'config.custom_headers[0].name',
    ]);
  });

  it('signature headers cannot be custom headers while Standard Webhooks signing is on', () => {
    const input = { url: URL_OK, custom_headers: [{ name: 'webhook-signature', value: 'x' }] };
    expect(kind.validateConfig(input).ok).toBe(true);
    expect(fieldsOf({ ...input, signing: { standard_webhooks: true, secret: WHSEC } })).toEqual([
      'config.custom_headers[0].name',
    ]);
  });

  it('rejects duplicate, malformed and CR/LF-carrying custom headers, naming each', () => {
    const errors = errorsOf({
      url: URL_OK,
      custom_headers: [
        { name: 'X-A', value: 'a' },
        { name: 'x-a', value: 'b' },
        { name: 'X B', value: 'c' },
        { name: 'X-C', value: 'a\r\nX-Evil: 1' },
        { name: 'X-D' },
      ],
    });
    expect(errors.map((e) => e.field)).toEqual([
      'config.custom_headers[1].name',
      'config.custom_headers[2].name',
      'config.custom_headers[3].value',
      'config.custom_headers[4].value',
    ]);
  });

  it('accepts known template variables and rejects unknown ones at save time', () => {
    const value =
      '{{originating_ip}} {{ uuid }} {{event_id}} {{delivery_id}} {{endpoint_id}} {{target_id}} {{received_at}} {{attempt}}';
    expect(kind.validateConfig({ url: URL_OK, custom_headers: [{ name: 'X-T', value }] }).ok).toBe(true);
    expect(errorsOf({ url: URL_OK, custom_headers: [{ name: 'X-T', value: '{{header.cookie}}' }] })).toEqual([
      { field: 'config.custom_headers[0].value', message: expect.stringContaining('{{header.cookie}}') },
    ]);
  });

  it('header forwarding: all, none, or a named list (lower-cased, de-duplicated)', () => {
    const fwd = (forward_headers: unknown) => {
      const r = kind.validateConfig({ url: URL_OK, forward_headers });
      return r.ok ? r.value.forward_headers : r.errors;
    };
    expect(fwd({ mode: 'all' })).toEqual({ mode: 'all' });
    expect(fwd({ mode: 'none' })).toEqual({ mode: 'none' });
    expect(fwd({ mode: 'list', names: ['X-Shop', 'x-shop', 'User-Agent'] })).toEqual({
      mode: 'list',
      names: ['x-shop', 'user-agent'],
    });
    expect(fwd({ mode: 'some' })).toEqual([{ field: 'config.forward_headers.mode', message: expect.any(String) }]);
  });

  it.each(['Cookie', 'Authorization', 'Host', 'X-Relay-Attempt'])(
    'header rule 4: the forwarding list cannot name %s',
    (name) => {
      expect(fieldsOf({ url: URL_OK, forward_headers: { mode: 'list', names: ['X-Ok', name] } })).toEqual([
        'config.forward_headers.names[1]',
      ]);
    },
  );

  it('signing needs a whsec_ secret of 24–64 bytes', () => {
    expect(fieldsOf({ url: URL_OK, signing: { standard_webhooks: true, secret: 'whsec_c2hvcnQ=' } })).toEqual([
      'config.signing.secret',
    ]);
    // every problem of the object at once: the switch and the missing secret
    expect(fieldsOf({ url: URL_OK, signing: { standard_webhooks: false } })).toEqual([
      'config.signing.standard_webhooks',
      'config.signing.secret',
    ]);
    expect(kind.validateConfig({ url: URL_OK, signing: { standard_webhooks: true, secret: WHSEC } }).ok).toBe(true);
  });

  it('reports every problem at once', () => {
    expect(
      fieldsOf({ url: 'nope', auth: { type: 'bearer' }, custom_headers: [{ name: 'Host', value: '{{x}}' }] }),
    ).toEqual(['config.url', 'config.auth.token', 'config.custom_headers[0].name', 'config.custom_headers[0].value']);
  });
});
