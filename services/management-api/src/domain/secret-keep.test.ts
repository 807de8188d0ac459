import { resolveCaptchaKeep, resolveInboundAuthKeeps } from './secret-keep';
import type { StoredSecrets } from './secret-keep';

/** "Sealed" values are the plaintext reversed, so a test can see which slot was opened. */
const seal = (s: string): string => `sealed:${[...s].reverse().join('')}`;
const stored = (over: Partial<StoredSecrets> = {}): StoredSecrets => ({
  inbound_auth: { type: 'BEARER', tokens: [seal('old-token'), seal('newer-token')] },
  captcha: { provider: 'turnstile', secret: seal('captcha-secret') },
  open: (v) => {
    if (!v.startsWith('sealed:')) throw new Error('cannot open');
    return [...v.slice(7)].reverse().join('');
  },
  ...over,
});

describe('{ "keep": <slot> } placeholders (rotation without resending a secret)', () => {
  it('keeps stored slots by position, next to new secrets', () => {
    expect(resolveInboundAuthKeeps({ type: 'BEARER', tokens: [{ keep: 1 }, 'brand-new'] }, stored())).toEqual({
      value: { type: 'BEARER', tokens: ['newer-token', 'brand-new'] },
      errors: [],
    });
  });

  it('BASIC keeps the password of a credential slot; the username is sent again', () => {
    const s = stored({ inbound_auth: { type: 'BASIC', credentials: [{ username: 'a', password: seal('pw-a') }] } });
    expect(
      resolveInboundAuthKeeps({ type: 'BASIC', credentials: [{ username: 'a2', password: { keep: 0 } }] }, s).value,
    ).toEqual({ type: 'BASIC', credentials: [{ username: 'a2', password: 'pw-a' }] });
  });

  it.each([
    [
      'a slot that is not stored',
      { type: 'BEARER', tokens: [{ keep: 2 }] },
      stored(),
      'inbound_auth.bearer.tokens[0]',
      /slots 0–1/,
    ],
    [
      'another type than the stored one',
      { type: 'API_KEY', header: 'X-Key', keys: [{ keep: 0 }] },
      stored(),
      'inbound_auth.api_key.keys[0]',
      /no stored API_KEY secret/,
    ],
    [
      'nothing stored (create)',
      { type: 'HMAC', preset: 'github', secrets: [{ keep: 0 }] },
      null,
      'inbound_auth.hmac.secrets[0]',
      /no stored HMAC secret/,
    ],
    [
      'a malformed placeholder',
      { type: 'BEARER', tokens: [{ keep: '0' }] },
      stored(),
      'inbound_auth.bearer.tokens[0]',
      /"keep": <slot number>/,
    ],
    [
      'a redacted value sent back',
      { type: 'BEARER', tokens: [{ set: true, last4: 'oken' }] },
      stored(),
      'inbound_auth.bearer.tokens[0]',
      /redacted value/,
    ],
    [
      'a stored secret that cannot be opened',
      { type: 'BEARER', tokens: [{ keep: 0 }] },
      stored({ inbound_auth: { type: 'BEARER', tokens: ['enc:v1:gone:x:y:z'] } }),
      'inbound_auth.bearer.tokens[0]',
      /SECRETS_KEYS/,
    ],
  ])('refuses %s, naming the slot', (_what, input, s, field, message) => {
    const r = resolveInboundAuthKeeps(input, s);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.field).toBe(field);
    expect(r.errors[0]!.message).toMatch(message);
  });

  it('leaves inputs without placeholders alone (the validator reports their problems)', () => {
    const input = { type: 'BEARER', tokens: 'x' };
    expect(resolveInboundAuthKeeps(input, stored())).toEqual({ value: input, errors: [] });
  });

  it('captcha: keeps its one secret while the provider stays the same', () => {
    expect(resolveCaptchaKeep({ provider: 'turnstile', secret: { keep: 0 } }, stored()).value).toEqual({
      provider: 'turnstile',
      secret: 'captcha-secret',
    });
    expect(resolveCaptchaKeep({ provider: 'hcaptcha', secret: { keep: 0 } }, stored()).errors[0]!.field).toBe(
      'captcha.secret',
    );
    expect(resolveCaptchaKeep({ provider: 'turnstile', secret: { keep: 1 } }, stored()).errors[0]!.message).toMatch(
      /one secret/,
    );
    expect(
      resolveCaptchaKeep({ provider: 'turnstile', secret: { keep: 0 } }, stored({ captcha: null })).errors[0]!.message,
    ).toMatch(/no stored captcha secret/);
  });
});
