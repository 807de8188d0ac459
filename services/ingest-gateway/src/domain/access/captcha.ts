import type { PayloadFormat, ResolvedCaptchaSettings } from '@relay/endpoints';
import { rejection } from '../rules/rejection';
import type { Rejection } from '../rules/rejection';

/** Longer than any provider issues (Turnstile documents 2048); anything longer is not a token. */
export const MAX_CAPTCHA_TOKEN_LENGTH = 4096;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Where the token sits in the parsed payload: a top-level member of a JSON object, a form
 * field (given once), or a child element of the XML root element (`<root><h-captcha-response>…`).
 * Other formats carry no captcha (spec "Feature interaction").
 */
function tokenCandidate(format: PayloadFormat, data: unknown, field: string): unknown {
  if (!isRecord(data)) return undefined;
  switch (format) {
    case 'json':
    case 'form':
      return Object.hasOwn(data, field) ? data[field] : undefined;
    case 'xml': {
      const root = Object.values(data)[0];
      return isRecord(root) && Object.hasOwn(root, field) ? root[field] : undefined;
    }
    case 'text':
    case 'none':
    case 'query':
    case 'query_base64_json':
      return undefined;
  }
}

/** The captcha token of a request; a missing or unusable token is 400 CAPTCHA_FAILED. */
export function extractCaptchaToken(
  format: PayloadFormat,
  data: unknown,
  field: string,
): { ok: true; token: string } | Rejection {
  const token = tokenCandidate(format, data, field);
  if (typeof token !== 'string' || token === '' || token.length > MAX_CAPTCHA_TOKEN_LENGTH) {
    return rejection(400, 'CAPTCHA_FAILED', `The captcha token is missing: send it once in the field ${field}.`);
  }
  return { ok: true, token };
}

/** The siteverify call all three providers share; the gateway's HTTP adapter sends it. */
export function captchaVerifyRequest(
  settings: ResolvedCaptchaSettings,
  token: string,
  remoteIp?: string,
): { url: string; contentType: 'application/x-www-form-urlencoded'; body: string } {
  const form = new URLSearchParams({ secret: settings.secret, response: token });
  if (remoteIp !== undefined) form.set('remoteip', remoteIp);
  return { url: settings.verify_url, contentType: 'application/x-www-form-urlencoded', body: form.toString() };
}

/** Providers answer `{"success": true|false, …}`; anything else counts as not verified. */
export function isCaptchaVerified(response: unknown): boolean {
  return isRecord(response) && response.success === true;
}

/** The provider did not verify the token (or could not be asked): 403, the request is refused as sent. */
export function captchaRejected(): Rejection {
  return rejection(403, 'CAPTCHA_FAILED', 'The captcha could not be verified.');
}
