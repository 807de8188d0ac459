import { resolveCaptchaSettings } from '@relay/endpoints';
import { captchaRejected, captchaVerifyRequest, extractCaptchaToken, isCaptchaVerified } from './captcha';

describe('captcha token: found in a JSON, form or XML body', () => {
  const field = 'h-captcha-response';

  it.each([
    ['JSON: a top-level member', 'json', { [field]: 'tok-1', other: 1 }, 'tok-1'],
    ['form: a field given once', 'form', { [field]: 'tok-2' }, 'tok-2'],
    ['XML: a child element of the root element', 'xml', { form: { [field]: 'tok-3', name: 'x' } }, 'tok-3'],
  ] as const)('%s', (_row, format, data, token) => {
    expect(extractCaptchaToken(format, data, field)).toEqual({ ok: true, token });
  });

  it.each([
    ['JSON: no such member', 'json', { other: 1 }],
    ['JSON: not a string', 'json', { [field]: 123 }],
    ['JSON: nested deeper', 'json', { data: { [field]: 't' } }],
    ['JSON: empty string', 'json', { [field]: '' }],
    ['JSON: an array root', 'json', [{ [field]: 't' }]],
    ['form: the field given twice', 'form', { [field]: ['a', 'b'] }],
    ['XML: the root element holds only text', 'xml', { [field]: 't' }],
    ['JSON: an oversized token', 'json', { [field]: 'x'.repeat(5000) }],
    ['None: no payload to carry a token', 'none', undefined],
  ] as const)('missing or unusable token (%s) → 400 CAPTCHA_FAILED', (_row, format, data) => {
    expect(extractCaptchaToken(format, data, field)).toMatchObject({ ok: false, status: 400, code: 'CAPTCHA_FAILED' });
  });

  it('inherited property names are not fields (a token field named toString finds nothing)', () => {
    expect(extractCaptchaToken('json', {}, 'toString')).toMatchObject({ ok: false, code: 'CAPTCHA_FAILED' });
  });

  it('the siteverify request carries secret, response and remoteip as a form', () => {
    const settings = resolveCaptchaSettings({ provider: 'turnstile', secret: 's3cr3t' });
    const req = captchaVerifyRequest(settings, 'tok', '203.0.113.9');
    expect(req.url).toBe('https://challenges.cloudflare.com/turnstile/v0/siteverify');
    expect(req.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({
      secret: 's3cr3t',
      response: 'tok',
      remoteip: '203.0.113.9',
    });
  });

  it.each([
    [{ success: true }, true],
    [{ success: false, 'error-codes': ['invalid-input-response'] }, false],
    [{ success: 'true' }, false],
    [null, false],
    ['ok', false],
  ])('provider answer %j → verified %s', (answer, verified) => {
    expect(isCaptchaVerified(answer)).toBe(verified);
  });

  it('a token the provider does not verify → 403 CAPTCHA_FAILED', () => {
    expect(captchaRejected()).toMatchObject({ ok: false, status: 403, code: 'CAPTCHA_FAILED' });
  });
});
