import { schemaCheck } from '../rules/validation';
import { resultOf } from '@relay/contracts';
import type { FieldError, Validation } from '@relay/contracts';

/**
 * Spec "Endpoint / captcha": optional verification of a token found in a JSON, form or XML
 * body. All three providers share the same siteverify protocol (form POST of `secret`,
 * `response`, optional `remoteip`; JSON answer with a boolean `success`).
 */
export const CAPTCHA_PROVIDERS = ['hcaptcha', 'recaptcha', 'turnstile'] as const;
type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

/** As stored; `verify_url` and `field` fall back to the provider's defaults. */
export interface CaptchaSettings {
  provider: CaptchaProvider;
  secret: string;
  verify_url?: string;
  field?: string;
}

export type ResolvedCaptchaSettings = Required<CaptchaSettings>;

export const CAPTCHA_DEFAULTS: { readonly [P in CaptchaProvider]: { verify_url: string; field: string } } = {
  hcaptcha: { verify_url: 'https://api.hcaptcha.com/siteverify', field: 'h-captcha-response' },
  recaptcha: { verify_url: 'https://www.google.com/recaptcha/api/siteverify', field: 'g-recaptcha-response' },
  turnstile: {
    verify_url: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    field: 'cf-turnstile-response',
  },
};

const check = schemaCheck({
  type: 'object',
  properties: {
    provider: { enum: [...CAPTCHA_PROVIDERS] },
    secret: { type: 'string', minLength: 1, maxLength: 1024 },
    verify_url: { type: 'string', minLength: 1, maxLength: 2048 },
    field: { type: 'string', minLength: 1, maxLength: 255 },
  },
  required: ['provider', 'secret'],
  additionalProperties: false,
});

/** Save-time validation; the returned value has the provider defaults filled in. */
export function validateCaptchaSettings(input: unknown, at = 'captcha'): Validation<ResolvedCaptchaSettings> {
  const errors = check(input, at);
  if (errors.length > 0) return { ok: false, errors };
  const settings = input as CaptchaSettings;
  if (/^\s|\s$/.test(settings.secret))
    errors.push({ field: `${at}.secret`, message: 'must not start or end with whitespace' });
  if (settings.verify_url !== undefined) errors.push(...verifyUrlErrors(settings.verify_url, `${at}.verify_url`));
  if (settings.field !== undefined && /[\x00-\x1F\x7F]/.test(settings.field))
    errors.push({ field: `${at}.field`, message: 'must not contain control characters' });
  return resultOf(errors, () => resolveCaptchaSettings(settings));
}

export function resolveCaptchaSettings(settings: CaptchaSettings): ResolvedCaptchaSettings {
  const defaults = CAPTCHA_DEFAULTS[settings.provider];
  return {
    provider: settings.provider,
    secret: settings.secret,
    verify_url: settings.verify_url ?? defaults.verify_url,
    field: settings.field ?? defaults.field,
  };
}

/** The secret is sent to this URL, so it must be HTTPS and carry no credentials. */
function verifyUrlErrors(value: string, field: string): FieldError[] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [{ field, message: 'must be an absolute URL' }];
  }
  if (url.protocol !== 'https:') return [{ field, message: 'must use https (the captcha secret is sent to it)' }];
  if (url.username !== '' || url.password !== '') return [{ field, message: 'must not contain credentials' }];
  return [];
}
