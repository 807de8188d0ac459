import { createHmac } from 'node:crypto';
import type { CustomHmacConfig, InboundAuthSetting } from '@relay/endpoints';
import { validateInboundAuth } from '@relay/endpoints';
import type { InboundRequest } from '../request';
import { verifyInbound } from '../verify';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const NOW_S = NOW.getTime() / 1000;
const URL_ = 'https://relay.example/relay/ep_1?x=1';
const BODY = Buffer.from('{"order":"o_1","total":"9.99 \u20ac"}');
const SECRETS = ['custom-secret-current', 'custom-secret-next'];

/** Test-side signer: renders the template by hand, independently of the verifier. */
function signRequest(
  config: CustomHmacConfig,
  secret: string,
  opts: { ts?: string; body?: Buffer } = {},
): InboundRequest {
  const ts = opts.ts ?? String(config.timestamp_unit === 'milliseconds' ? NOW.getTime() : NOW_S);
  const content = config.template
    .split(/(\{\{\w+\}\})/)
    .map((part) => ({ '{{body}}': BODY, '{{timestamp}}': ts, '{{id}}': 'dlv_1', '{{url}}': URL_ })[part] ?? part);
  const mac = createHmac(config.algorithm, secret);
  for (const c of content) mac.update(c);
  const headers: Record<string, string> = {
    [config.header.toLowerCase()]: (config.prefix ?? '') + mac.digest(config.encoding),
  };
  if (config.timestamp_header) headers[config.timestamp_header.toLowerCase()] = ts;
  if (config.id_header) headers[config.id_header.toLowerCase()] = 'dlv_1';
  return { method: 'POST', url: URL_, headers, rawBody: opts.body ?? BODY };
}

function settingFor(custom: CustomHmacConfig, secrets = SECRETS, tolerance?: number): InboundAuthSetting {
  const checked = validateInboundAuth({
    type: 'HMAC',
    preset: 'custom',
    secrets,
    custom,
    ...(tolerance ? { tolerance_seconds: tolerance } : {}),
  });
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.value;
}

const CONFIGS: [string, CustomHmacConfig][] = [
  ['sha256 hex over the body', { algorithm: 'sha256', header: 'X-Signature', encoding: 'hex', template: '{{body}}' }],
  [
    'sha1 base64 with a prefix',
    { algorithm: 'sha1', header: 'X-Hook-Sig', encoding: 'base64', prefix: 'sha1=', template: '{{body}}' },
  ],
  [
    'sha512 hex over timestamp.body',
    {
      algorithm: 'sha512',
      header: 'X-Sig',
      encoding: 'hex',
      template: '{{timestamp}}.{{body}}',
      timestamp_header: 'X-Timestamp',
    },
  ],
  [
    'sha256 base64 over id.timestamp.body',
    {
      algorithm: 'sha256',
      header: 'X-Sig',
      encoding: 'base64',
      template: '{{id}}.{{timestamp}}.{{body}}',
      timestamp_header: 'X-Ts',
      id_header: 'X-Delivery',
    },
  ],
  [
    'sha256 hex over url + body',
    { algorithm: 'sha256', header: 'X-Sig', encoding: 'hex', template: '{{url}}{{body}}' },
  ],
  [
    'sha256 hex, millisecond timestamps',
    {
      algorithm: 'sha256',
      header: 'X-Sig',
      encoding: 'hex',
      template: 'v1:{{timestamp}}:{{body}}',
      timestamp_header: 'X-Ts',
      timestamp_unit: 'milliseconds',
    },
  ],
];

describe.each(CONFIGS)('HMAC custom (%s)', (_name, config) => {
  const setting = settingFor(config);

  test('a valid signature passes', () => {
    expect(verifyInbound(setting, signRequest(config, SECRETS[0] ?? ''), NOW)).toEqual({ ok: true });
  });

  test('the second (rotation) secret is accepted', () => {
    expect(verifyInbound(setting, signRequest(config, SECRETS[1] ?? ''), NOW)).toEqual({ ok: true });
  });

  test('a body changed by one byte fails', () => {
    const req = signRequest(config, SECRETS[0] ?? '');
    expect(
      verifyInbound(setting, { ...req, rawBody: Buffer.from(BODY.toString().replace('o_1', 'o_2')) }, NOW),
    ).toEqual({ ok: false, reason: 'signature mismatch' });
  });

  test('a signature made with another secret fails', () => {
    expect(verifyInbound(setting, signRequest(config, 'another-secret'), NOW)).toEqual({
      ok: false,
      reason: 'signature mismatch',
    });
  });

  test('a request without the signature header fails', () => {
    const req = signRequest(config, SECRETS[0] ?? '');
    const { [config.header.toLowerCase()]: _dropped, ...headers } = req.headers;
    expect(verifyInbound(setting, { ...req, headers }, NOW)).toEqual({
      ok: false,
      reason: `missing ${config.header.toLowerCase()} header`,
    });
  });
});

describe('HMAC custom: replay window', () => {
  const config: CustomHmacConfig = {
    algorithm: 'sha256',
    header: 'X-Sig',
    encoding: 'hex',
    template: '{{timestamp}}.{{body}}',
    timestamp_header: 'X-Ts',
  };

  test.each([
    ['a timestamp 300 s old passes (default tolerance 300 s)', NOW_S - 300, undefined, { ok: true }],
    ['a timestamp 301 s old fails', NOW_S - 301, undefined, { ok: false, reason: 'timestamp outside tolerance' }],
    [
      'tolerance_seconds 30: a timestamp 31 s old fails',
      NOW_S - 31,
      30,
      { ok: false, reason: 'timestamp outside tolerance' },
    ],
  ])('%s', (_rule, ts, tolerance, expected) => {
    expect(
      verifyInbound(
        settingFor(config, SECRETS, tolerance),
        signRequest(config, SECRETS[0] ?? '', { ts: String(ts) }),
        NOW,
      ),
    ).toEqual(expected);
  });

  test('a request without the timestamp header fails', () => {
    const req = signRequest(config, SECRETS[0] ?? '');
    const { 'x-ts': _dropped, ...headers } = req.headers;
    expect(verifyInbound(settingFor(config), { ...req, headers }, NOW)).toEqual({
      ok: false,
      reason: 'missing x-ts header',
    });
  });
});

test('HMAC custom: a signature without the configured prefix is malformed', () => {
  const config: CustomHmacConfig = {
    algorithm: 'sha256',
    header: 'X-Sig',
    encoding: 'hex',
    prefix: 'sha256=',
    template: '{{body}}',
  };
  const req = signRequest({ ...config, prefix: '' }, SECRETS[0] ?? '');
  expect(verifyInbound(settingFor(config), req, NOW)).toEqual({ ok: false, reason: 'malformed x-sig header' });
});
