import type { AttemptResult, SendOutcome } from '../../kind';
import { classifyFailureCode } from '../../http/failures';

/** Retry-After as whole seconds or an HTTP date; undefined when absent or unusable. */
export function retryAfterMs(value: string | string[] | undefined, now: number): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * How an attempt ended. Network failures retry, except those the same configuration cannot
 * fix: the SSRF guard's refusal and an untrusted certificate (self-signed, unknown CA, wrong
 * host — spec "Outbound"), a receiver's refusal of the client certificate (or of its absence,
 * mutual TLS) and a request Node refuses to send are permanent and flag the target; a 2xx whose body ran past the sender's limit is permanent (docs/delivery.md
 * "Responses too large"); an expired certificate retries, since a renewal fixes it. Redirects
 * are never followed and are permanent.
 */
export function classifyWebhookOutcome(outcome: SendOutcome, now = Date.now()): AttemptResult {
  if ('error' in outcome) {
    const { code, message } = outcome.error;
    const error = `${code}: ${message}`;
    switch (classifyFailureCode(code)) {
      case 'ssrf_blocked':
      case 'untrusted_certificate':
      case 'unsendable':
        return { result: 'permanent', status: null, error, flagTarget: true };
      // the attempt error leads with a stable token, the receiver's alert after it
      case 'client_certificate_required':
        return {
          result: 'permanent',
          status: null,
          error: `tls_client_certificate_required: the receiver requires a client certificate and none was presented (${error})`,
          flagTarget: true,
        };
      case 'client_certificate_rejected':
        return {
          result: 'permanent',
          status: null,
          error: `tls_client_certificate_rejected: the receiver refused the client certificate (${error})`,
          flagTarget: true,
        };
      case 'response_too_large':
        return { result: 'permanent', status: null, error, flagTarget: false };
      default:
        return { result: 'retry', status: null, error };
    }
  }
  const { status, headers } = outcome.response;
  if (status >= 200 && status < 300) return { result: 'success', status };
  if (status >= 300 && status < 400)
    return { result: 'permanent', status, error: `redirect (${status}) not followed`, flagTarget: false };
  if (status === 408 || status === 425 || status === 429 || status >= 500) {
    const after = retryAfterMs(headers['retry-after'], now);
    return after === undefined
      ? { result: 'retry', status, error: `HTTP ${status}` }
      : { result: 'retry', status, error: `HTTP ${status}`, retryAfterMs: after };
  }
  return { result: 'permanent', status, error: `HTTP ${status}`, flagTarget: status === 410 };
}
