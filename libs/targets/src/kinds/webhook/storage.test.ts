import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import { createWebhookKind, REDACTED } from './index';

const box = createSecretBox(`k1:${randomBytes(32).toString('base64')}`);
const kind = createWebhookKind({ secrets: box });
const WHSEC = `whsec_${randomBytes(32).toString('base64')}`;
const PLAINTEXT = ['bearer-token-123', 'api-key-456', 'basic-pw-789', 'session-cookie-abc', 'custom-secret-def', WHSEC];

function saved(auth: Record<string, unknown>) {
  const r = kind.validateConfig({
    url: 'https://hooks.example.com/in',
    auth,
    custom_headers: [
      { name: 'Cookie', value: 'session-cookie-abc' }, // credential-like name: auto-sensitive
      { name: 'X-Custom', value: 'custom-secret-def', sensitive: true },
      { name: 'X-Idempotency-Key', value: '{{delivery_id}}' },
      { name: 'X-Plain', value: 'visible' },
      { name: 'X-Carrier', value: 'Bearer something' }, // credential-like value: auto-sensitive
    ],
    signing: { standard_webhooks: true, secret: WHSEC },
  });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}

describe('webhook secrets at rest (spec "Relay target": sensitive headers stored encrypted, never shown again)', () => {
  it.each([
    { type: 'bearer', token: 'bearer-token-123' },
    { type: 'api_key', header: 'X-Api-Key', key: 'api-key-456' },
    { type: 'basic', username: 'svc', password: 'basic-pw-789' },
  ])('the stored config (the MongoDB document) holds only ciphertext for $type auth', (auth) => {
    const stored = JSON.stringify(saved(auth));
    for (const secret of PLAINTEXT) expect(stored).not.toContain(secret);
    expect(stored).toMatch(/enc:v1:k1:/);
  });

  it('seals exactly the secrets and the credential-like or sensitive header values', () => {
    const c = saved({ type: 'bearer', token: 'bearer-token-123' });
    expect(c.auth.type === 'bearer' && box.decrypt(c.auth.token)).toBe('bearer-token-123');
    expect(c.signing && box.decrypt(c.signing.secret)).toBe(WHSEC);
    expect(c.custom_headers.map((h) => [h.name, h.sensitive, box.isEncrypted(h.value)])).toEqual([
      ['Cookie', true, true],
      ['X-Custom', true, true],
      ['X-Idempotency-Key', true, true],
      ['X-Plain', false, false],
      ['X-Carrier', true, true],
    ]);
    expect(box.decrypt(c.custom_headers[0]?.value ?? '')).toBe('session-cookie-abc');
  });

  it('sensitive: false cannot unmark a credential-like header', () => {
    const r = kind.validateConfig({
      url: 'https://h.example/',
      custom_headers: [{ name: 'X-Auth-Token', value: 't', sensitive: false }],
    });
    expect(r.ok && r.value.custom_headers[0]?.sensitive).toBe(true);
  });

  it('publicConfig never returns a secret or its ciphertext', () => {
    const shown = kind.publicConfig(saved({ type: 'api_key', header: 'X-Api-Key', key: 'api-key-456' }));
    const text = JSON.stringify(shown);
    for (const secret of PLAINTEXT) expect(text).not.toContain(secret);
    expect(text).not.toContain('enc:v1');
    expect(shown).toMatchObject({
      auth: { type: 'api_key', header: 'X-Api-Key', key: REDACTED },
      signing: { standard_webhooks: true, secret: REDACTED },
      custom_headers: expect.arrayContaining([
        { name: 'X-Plain', value: 'visible', sensitive: false },
        { name: 'Cookie', value: REDACTED, sensitive: true },
      ]),
    });
  });

  it('publicConfig shows the basic username but not the password', () => {
    expect(kind.publicConfig(saved({ type: 'basic', username: 'svc', password: 'basic-pw-789' })).auth).toEqual({
      type: 'basic',
      username: 'svc',
      password: REDACTED,
    });
  });
});
