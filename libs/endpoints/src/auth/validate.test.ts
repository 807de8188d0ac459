import { HMAC_PRESET_INFO } from './presets';
import type { SecretFormat } from './presets/spec';
import { HMAC_PRESETS } from './types';
import { validateInboundAuth } from './validate';

const WHSEC = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ED25519_HEX = 'a'.repeat(64);
/** A valid secret in each preset's format; the last character is varied for the second slot. */
const SAMPLE_SECRETS: Record<SecretFormat, string> = {
  text: 'signing-secret-1',
  whsec: WHSEC,
  base64: 'c2lnbmluZy1zZWNyZXQtYnl0ZXMtMQa',
  hex: '5a1e6c0ffee0ddba11aa',
  ed25519_public_key_hex: ED25519_HEX,
  ed25519_public_key_base64: 'O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ia',
  public_key_spki_base64: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEsamplekeybytesa',
  public_key_pem:
    '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAsamplea\n-----END PUBLIC KEY-----',
  sns_topic_arn: 'arn:aws:sns:us-east-1:123456789012:orders',
  paypal_webhook_id: '1JE4291016473214C',
};
const secretFor = (preset: string): string =>
  SAMPLE_SECRETS[HMAC_PRESET_INFO[preset as keyof typeof HMAC_PRESET_INFO]?.secretFormat ?? 'text'];
const CUSTOM = {
  algorithm: 'sha256',
  header: 'X-Signature',
  encoding: 'hex',
  prefix: 'sha256=',
  template: '{{timestamp}}.{{body}}',
  timestamp_header: 'X-Timestamp',
};

describe('validateInboundAuth accepts', () => {
  test.each([
    ['NONE', { type: 'NONE' }],
    [
      'BASIC with two credentials (rotation)',
      {
        type: 'BASIC',
        credentials: [
          { username: 'u', password: 'p1' },
          { username: 'u', password: 'p:2' },
        ],
      },
    ],
    ['BEARER with one token', { type: 'BEARER', tokens: ['tok_123'] }],
    [
      'API_KEY with a mixed-case header name and two keys',
      { type: 'API_KEY', header: 'X-API-Key', keys: ['k1', 'k 2'] },
    ],
    [
      'HMAC custom with a timestamp header and tolerance',
      { type: 'HMAC', preset: 'custom', secrets: ['s1', 's2'], custom: CUSTOM, tolerance_seconds: 120 },
    ],
    [
      'HMAC custom over url, id and body',
      {
        type: 'HMAC',
        preset: 'custom',
        secrets: ['s1'],
        custom: {
          algorithm: 'sha512',
          header: 'X-Sig',
          encoding: 'base64',
          template: '{{url}}|{{ id }}|{{body}}',
          id_header: 'X-Id',
        },
      },
    ],
    [
      'HMAC stripe with tolerance_seconds',
      { type: 'HMAC', preset: 'stripe', secrets: ['whsec_x'], tolerance_seconds: 600 },
    ],
  ])('%s', (_name, input) => {
    expect(validateInboundAuth(input)).toEqual({ ok: true, value: input });
  });

  test.each([...HMAC_PRESETS])('HMAC preset %s with two secrets', (preset) => {
    const input = {
      type: 'HMAC',
      preset,
      secrets: [secretFor(preset), secretFor(preset).replace(/.(?=(?:\n-----END PUBLIC KEY-----)?$)/, 'b')],
    };
    expect(validateInboundAuth(input)).toEqual({ ok: true, value: input });
  });

  test('the returned value is a copy, not the input', () => {
    const input = { type: 'BEARER', tokens: ['t'] };
    const result = validateInboundAuth(input);
    expect(result.ok && result.value).not.toBe(input);
  });
});

describe('validateInboundAuth rejects', () => {
  test.each([
    ['a value that is not an object', 'BEARER', 'inbound_auth', 'must be an object'],
    ['a missing type', {}, 'inbound_auth.type', 'must be one of NONE, BASIC, BEARER, API_KEY, HMAC'],
    ['an unknown type', { type: 'OAUTH' }, 'inbound_auth.type', 'must be one of'],
    [
      'an API key header name that is not an HTTP token',
      { type: 'API_KEY', header: 'X API Key', keys: ['k'] },
      'inbound_auth.api_key.header',
      'valid HTTP header name',
    ],
    [
      'an API key header name with a colon',
      { type: 'API_KEY', header: 'x-key:', keys: ['k'] },
      'inbound_auth.api_key.header',
      'valid HTTP header name',
    ],
    [
      'an API key in a header HTTP itself uses',
      { type: 'API_KEY', header: 'Content-Type', keys: ['k'] },
      'inbound_auth.api_key.header',
      'used by HTTP itself',
    ],
    ['a missing API key header', { type: 'API_KEY', keys: ['k'] }, 'inbound_auth.api_key.header', 'is required'],
    ['an empty secret', { type: 'BEARER', tokens: [''] }, 'inbound_auth.bearer.tokens[0]', 'must not be empty'],
    ['an empty secret list', { type: 'BEARER', tokens: [] }, 'inbound_auth.bearer.tokens', 'at least one'],
    [
      'more than 2 secrets',
      { type: 'HMAC', preset: 'github', secrets: ['a', 'b', 'c'] },
      'inbound_auth.hmac.secrets',
      'at most 2',
    ],
    [
      'more than 2 API keys',
      { type: 'API_KEY', header: 'X-Key', keys: ['a', 'b', 'c'] },
      'inbound_auth.api_key.keys',
      'at most 2',
    ],
    ['two identical tokens', { type: 'BEARER', tokens: ['t', 't'] }, 'inbound_auth.bearer.tokens', 'must differ'],
    [
      'a secret with surrounding whitespace',
      { type: 'HMAC', preset: 'github', secrets: ['secret\n'] },
      'inbound_auth.hmac.secrets[0]',
      'whitespace',
    ],
    [
      'a bearer token with a space',
      { type: 'BEARER', tokens: ['a b'] },
      'inbound_auth.bearer.tokens[0]',
      'without spaces',
    ],
    [
      'an API key with a control character',
      { type: 'API_KEY', header: 'X-Key', keys: ['a\u0001'] },
      'inbound_auth.api_key.keys[0]',
      'printable ASCII',
    ],
    [
      'a Basic username with a colon',
      { type: 'BASIC', credentials: [{ username: 'a:b', password: 'p' }] },
      'inbound_auth.basic.credentials[0].username',
      'must not contain ":"',
    ],
    [
      'a Basic credential without password',
      { type: 'BASIC', credentials: [{ username: 'a' }] },
      'inbound_auth.basic.credentials[0].password',
      'is required',
    ],
    [
      'an unknown field',
      { type: 'BEARER', tokens: ['t'], token: 't' },
      'inbound_auth.bearer.token',
      'not a known field',
    ],
    [
      'an unknown preset',
      { type: 'HMAC', preset: 'not_a_provider', secrets: ['s'] },
      'inbound_auth.hmac.preset',
      'must be one of github, stripe',
    ],
    [
      'a custom algorithm outside sha1/sha256/sha512',
      { type: 'HMAC', preset: 'custom', secrets: ['s'], custom: { ...CUSTOM, algorithm: 'md5' } },
      'inbound_auth.hmac.custom.algorithm',
      'must be one of sha1, sha256, sha512',
    ],
    [
      'a custom encoding other than hex/base64',
      { type: 'HMAC', preset: 'custom', secrets: ['s'], custom: { ...CUSTOM, encoding: 'base32' } },
      'inbound_auth.hmac.custom.encoding',
      'must be one of hex, base64',
    ],
    [
      'a custom template with an unknown variable',
      { type: 'HMAC', preset: 'custom', secrets: ['s'], custom: { ...CUSTOM, template: '{{method}}.{{body}}' } },
      'inbound_auth.hmac.custom.template',
      'unknown variable {{method}}',
    ],
    [
      'a custom template with an unclosed brace',
      { type: 'HMAC', preset: 'custom', secrets: ['s'], custom: { ...CUSTOM, template: '{{body}}.{{timestamp' } },
      'inbound_auth.hmac.custom.template',
      'unbalanced',
    ],
    [
      'a custom template without {{body}}',
      { type: 'HMAC', preset: 'custom', secrets: ['s'], custom: { ...CUSTOM, template: '{{timestamp}}' } },
      'inbound_auth.hmac.custom.template',
      'must include {{body}}',
    ],
    [
      '{{timestamp}} without a timestamp header',
      {
        type: 'HMAC',
        preset: 'custom',
        secrets: ['s'],
        custom: { algorithm: 'sha256', header: 'X-Sig', encoding: 'hex', template: '{{timestamp}}.{{body}}' },
      },
      'inbound_auth.hmac.custom.timestamp_header',
      'is required when the template uses {{timestamp}}',
    ],
    [
      '{{id}} without an id header',
      { type: 'HMAC', preset: 'custom', secrets: ['s'], custom: { ...CUSTOM, template: '{{id}}.{{body}}' } },
      'inbound_auth.hmac.custom.id_header',
      'is required',
    ],
    [
      'a custom timestamp header equal to the signature header',
      { type: 'HMAC', preset: 'custom', secrets: ['s'], custom: { ...CUSTOM, timestamp_header: 'x-signature' } },
      'inbound_auth.hmac.custom.timestamp_header',
      'must differ',
    ],
    [
      'preset custom without its configuration',
      { type: 'HMAC', preset: 'custom', secrets: ['s'] },
      'inbound_auth.hmac.custom',
      'is required when preset is custom',
    ],
    [
      'a custom configuration on a provider preset',
      { type: 'HMAC', preset: 'stripe', secrets: ['s'], custom: CUSTOM },
      'inbound_auth.hmac.custom',
      'only allowed when preset is custom',
    ],
    [
      'tolerance_seconds on a preset that signs no timestamp',
      { type: 'HMAC', preset: 'github', secrets: ['s'], tolerance_seconds: 60 },
      'inbound_auth.hmac.tolerance_seconds',
      'GitHub preset signs no timestamp',
    ],
    [
      'tolerance_seconds of 0',
      { type: 'HMAC', preset: 'stripe', secrets: ['s'], tolerance_seconds: 0 },
      'inbound_auth.hmac.tolerance_seconds',
      'must be >= 1',
    ],
    [
      'a Standard Webhooks secret that is not whsec_ base64',
      { type: 'HMAC', preset: 'standard_webhooks', secrets: ['whsec_not base64!'] },
      'inbound_auth.hmac.secrets[0]',
      'whsec_',
    ],
    [
      'a Discord public key that is not 64 hex characters',
      { type: 'HMAC', preset: 'discord', secrets: ['abc123'] },
      'inbound_auth.hmac.secrets[0]',
      '64 hex',
    ],
  ])('%s', (_rule, input, field, message) => {
    const result = validateInboundAuth(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toContainEqual({ field, message: expect.stringContaining(message) });
  });

  test('every problem is reported at once (ajv allErrors)', () => {
    const result = validateInboundAuth({ type: 'API_KEY', header: 'bad header', keys: ['', 'k', 'k2'] });
    expect(result.ok ? [] : result.errors.map((e) => e.field).sort()).toEqual([
      'inbound_auth.api_key.header',
      'inbound_auth.api_key.keys',
      'inbound_auth.api_key.keys[0]',
    ]);
  });

  test('the field prefix can be changed for nested records', () => {
    const result = validateInboundAuth({ type: 'BEARER', tokens: [''] }, 'endpoint.inbound_auth');
    expect(result).toEqual({
      ok: false,
      errors: [{ field: 'endpoint.inbound_auth.bearer.tokens[0]', message: 'must not be empty' }],
    });
  });

  test('error messages never echo a submitted secret', () => {
    const secret = 'super secret value ';
    const result = validateInboundAuth({ type: 'HMAC', preset: 'svix', secrets: [secret, secret, secret] });
    expect(JSON.stringify(result)).not.toContain('super secret');
  });
});
