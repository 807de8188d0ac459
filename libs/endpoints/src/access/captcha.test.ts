import { CAPTCHA_DEFAULTS, validateCaptchaSettings } from './captcha';

describe('validateCaptchaSettings (save time)', () => {
  it.each([
    ['hcaptcha', 'https://api.hcaptcha.com/siteverify', 'h-captcha-response'],
    ['recaptcha', 'https://www.google.com/recaptcha/api/siteverify', 'g-recaptcha-response'],
    ['turnstile', 'https://challenges.cloudflare.com/turnstile/v0/siteverify', 'cf-turnstile-response'],
  ] as const)('%s: verify_url and field default to the provider official values', (provider, verify_url, field) => {
    expect(validateCaptchaSettings({ provider, secret: 's' })).toEqual({
      ok: true,
      value: { provider, secret: 's', verify_url, field },
    });
    expect(CAPTCHA_DEFAULTS[provider]).toEqual({ verify_url, field });
  });

  it('keeps a custom verify_url and field', () => {
    const input = {
      provider: 'hcaptcha',
      secret: 's',
      verify_url: 'https://captcha.internal/siteverify',
      field: 'token',
    };
    expect(validateCaptchaSettings(input)).toEqual({ ok: true, value: input });
  });

  it.each([
    ['an unknown provider', { provider: 'arkose', secret: 's' }, 'captcha.provider'],
    ['a missing secret', { provider: 'turnstile' }, 'captcha.secret'],
    ['a secret with surrounding whitespace', { provider: 'turnstile', secret: ' s' }, 'captcha.secret'],
    [
      'a plain-http verify_url',
      { provider: 'turnstile', secret: 's', verify_url: 'http://x.example/verify' },
      'captcha.verify_url',
    ],
    ['a relative verify_url', { provider: 'turnstile', secret: 's', verify_url: '/verify' }, 'captcha.verify_url'],
    [
      'a verify_url with credentials',
      { provider: 'turnstile', secret: 's', verify_url: 'https://u:p@x.example/' },
      'captcha.verify_url',
    ],
    ['an empty field', { provider: 'turnstile', secret: 's', field: '' }, 'captcha.field'],
  ])('rejects %s', (_case, input, field) => {
    const result = validateCaptchaSettings(input);
    expect(!result.ok && result.errors.map((e) => e.field)).toEqual([field]);
  });
});
