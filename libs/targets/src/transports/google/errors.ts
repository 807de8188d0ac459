import type { AttemptResult, SendOutcome } from '../../kind';
import { chatNetworkFailure, retryAfterHeaderMs, safeErrorText } from '../../kinds/template';

type Response = Extract<SendOutcome, { response: unknown }>['response'];

/** Google's JSON error body: `{"error":{"code":403,"message":"…","status":"PERMISSION_DENIED"}}` (or OAuth's `{"error":"invalid_grant",…}`). */
function errorOf(body: string): { status: string; message: string } {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; error_description?: unknown };
    if (typeof parsed.error === 'string')
      return {
        status: parsed.error,
        message: typeof parsed.error_description === 'string' ? parsed.error_description : '',
      };
    const e = parsed.error as { status?: unknown; message?: unknown } | undefined;
    return {
      status: typeof e?.status === 'string' ? e.status : '',
      message: typeof e?.message === 'string' ? e.message : '',
    };
  } catch {
    return { status: '', message: '' };
  }
}

/**
 * A 400 that no later attempt can get past: the sheet tab does not exist (the range cannot be
 * parsed), or the spreadsheet is full (10,000,000 cells). The target needs changing: flagged.
 */
const TARGET_400 = /unable to parse range|above the limit of [\d,]+ cells|exceeds grid limits/i;

/**
 * What a Google API answer other than 2xx means for the attempt:
 * - 429 (quota: 60 writes per minute per user, 300 per project) → retry, after the answer's
 *   Retry-After when it sends one, else on the target's backoff schedule;
 * - 5xx → retry;
 * - 403 (the sheet is not shared with the service account, the API is off in its project)
 *   and 404 (no such spreadsheet) → permanent, target flagged;
 * - 400/401 from the token endpoint (invalid_grant, invalid_client: the key was deleted or is
 *   wrong) → permanent, flagged;
 * - another 400 → permanent; flagged when it names the target's settings (TARGET_400).
 */
export function classifyGoogleAnswer(what: string, res: Response): AttemptResult {
  const { status, message } = errorOf(res.body);
  const detail = safeErrorText([status, message].filter(Boolean).join(': ') || res.body.slice(0, 120), 200);
  const error = `${what}: HTTP ${res.status}${detail ? ` ${detail}` : ''}`;
  if (res.status === 429 || res.status >= 500) {
    const retryAfterMs = retryAfterHeaderMs(res.headers);
    return retryAfterMs !== undefined
      ? { result: 'retry', status: res.status, error, retryAfterMs }
      : { result: 'retry', status: res.status, error };
  }
  if (res.status === 403 || res.status === 404)
    return { result: 'permanent', status: res.status, error, flagTarget: true };
  if (status === 'invalid_grant' || status === 'invalid_client' || status === 'unauthorized_client')
    return { result: 'permanent', status: res.status, error, flagTarget: true };
  if (res.status === 400)
    return { result: 'permanent', status: res.status, error, flagTarget: TARGET_400.test(message) };
  return { result: 'retry', status: res.status, error };
}

/** A failed connection to Google: the chat kinds' rules (SSRF refusal and untrusted certificates flag; the rest retry). */
export function googleNetworkFailure(code: string): AttemptResult {
  return chatNetworkFailure(code);
}
