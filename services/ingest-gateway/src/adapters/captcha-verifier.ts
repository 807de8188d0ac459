import type { Logger } from '@relay/logging';
import type { HttpRequest, SendOutcome } from '@relay/targets';
import { captchaVerifyRequest, isCaptchaVerified } from '../domain/access/captcha';
import type { CaptchaVerifier } from '../domain/ports';

export interface CaptchaVerifierOptions {
  /** the deliverers' sender (`createSender` of @relay/targets): SSRF guard, timeout, no redirects */
  send: (req: HttpRequest) => Promise<SendOutcome>;
  logger: Logger;
  /** counts verifier outages (metric relay_ingest_captcha_unavailable_total) */
  unavailableCounter: { inc(): void };
}

/**
 * The siteverify call hCaptcha, reCAPTCHA and Turnstile share. The verify URL is the
 * endpoint's (a configurable setting), so the call goes through the same sender as
 * deliveries: SSRF guard, no redirects, and a response read as a stream, uncompressed and cut
 * at the sender's body limit (a tenant's verify URL answering a gigabyte, or a gzip bomb, costs
 * the gateway a few KB). A 2xx JSON answer decides; anything else — timeout, refused
 * connection, 5xx, RESPONSE_TOO_LARGE, a body that is not JSON — is `unavailable`, never
 * `verified`: captcha fails closed.
 */
export function createCaptchaVerifier(opts: CaptchaVerifierOptions): CaptchaVerifier {
  return {
    async verify(settings, token, remoteIp) {
      const call = captchaVerifyRequest(settings, token, remoteIp);
      const outcome = await opts.send({
        url: call.url,
        headers: { 'content-type': call.contentType, accept: 'application/json' },
        body: Buffer.from(call.body),
        // a verification changes nothing but the token's use; without it a verifier's idle close
        // would make a sender's request after a lull unavailable
        resendable: true,
      });
      const answer = 'response' in outcome && outcome.response.status < 300 ? jsonOf(outcome.response.body) : undefined;
      if (answer === undefined) {
        const problem =
          'error' in outcome
            ? outcome.error.code
            : outcome.response.status < 300
              ? 'answer is not JSON'
              : `HTTP ${outcome.response.status}`;
        opts.unavailableCounter.inc();
        opts.logger.warn('captcha verifier unavailable', {
          provider: settings.provider,
          problem,
          duration_ms: Math.round(outcome.durationMs),
        });
        return 'unavailable';
      }
      return isCaptchaVerified(answer) ? 'verified' : 'rejected';
    },
  };
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
