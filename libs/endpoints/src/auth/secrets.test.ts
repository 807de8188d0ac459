import { mapInboundAuthSecrets, redactInboundAuth, secretPaths } from './secrets';
import type { InboundAuthSetting } from './types';

const LONG = 'sk_live_0123456789abcdefWXYZ';
const SETTINGS: [string, InboundAuthSetting, string[]][] = [
  ['NONE', { type: 'NONE' }, []],
  [
    'BASIC',
    {
      type: 'BASIC',
      credentials: [
        { username: 'sender', password: 'pw-one-long-enough-1' },
        { username: 'sender', password: 'pw2' },
      ],
    },
    ['credentials[0].password', 'credentials[1].password'],
  ],
  ['BEARER', { type: 'BEARER', tokens: [LONG, 'short'] }, ['tokens[0]', 'tokens[1]']],
  ['API_KEY', { type: 'API_KEY', header: 'X-API-Key', keys: [LONG] }, ['keys[0]']],
  [
    'HMAC preset',
    { type: 'HMAC', preset: 'stripe', secrets: ['whsec_a', LONG], tolerance_seconds: 300 },
    ['secrets[0]', 'secrets[1]'],
  ],
  [
    'HMAC custom',
    {
      type: 'HMAC',
      preset: 'custom',
      secrets: [LONG],
      custom: { algorithm: 'sha256', header: 'X-Sig', encoding: 'hex', template: '{{body}}' },
    },
    ['secrets[0]'],
  ],
];

describe.each(SETTINGS)('%s', (_type, setting, paths) => {
  test('secretPaths lists every secret value', () => {
    expect(secretPaths(setting)).toEqual(paths);
  });

  test('redactInboundAuth never returns a secret', () => {
    const redacted = JSON.stringify(redactInboundAuth(setting));
    for (const path of paths) {
      const secret = path
        .split(/[.[\]]+/)
        .filter(Boolean)
        .reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], setting);
      expect(redacted).not.toContain(String(secret));
    }
  });

  test('encrypt then decrypt through mapInboundAuthSecrets gives the setting back', () => {
    const encrypted = mapInboundAuthSecrets(setting, (s) => Buffer.from(s).toString('base64'));
    expect(mapInboundAuthSecrets(encrypted, (s) => Buffer.from(s, 'base64').toString())).toEqual(setting);
  });
});

test('redaction: long machine secrets show their last 4 characters, short ones and passwords only "set"', () => {
  expect(redactInboundAuth({ type: 'BEARER', tokens: [LONG, 'short'] })).toEqual({
    type: 'BEARER',
    tokens: [{ set: true, last4: 'WXYZ' }, { set: true }],
  });
  expect(
    redactInboundAuth({
      type: 'BASIC',
      credentials: [{ username: 'sender', password: 'a-very-long-password-indeed' }],
    }),
  ).toEqual({
    type: 'BASIC',
    credentials: [{ username: 'sender', password: { set: true } }],
  });
});

test('redaction keeps non-secret fields (header names, custom options, tolerance)', () => {
  const setting: InboundAuthSetting = {
    type: 'HMAC',
    preset: 'custom',
    secrets: ['s'],
    tolerance_seconds: 60,
    custom: {
      algorithm: 'sha1',
      header: 'X-Sig',
      encoding: 'base64',
      template: '{{timestamp}}{{body}}',
      timestamp_header: 'X-Ts',
    },
  };
  expect(redactInboundAuth(setting)).toEqual({ ...setting, secrets: [{ set: true }] });
});
