import { X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import type { CertificateProvider } from '@relay/endpoints';
import type { Logger } from '@relay/logging';
import type { HttpRequest, SendOutcome } from '@relay/targets';
import { checkSigningCertificate } from '../domain/auth/certificate';
import type { CertificateAnswer, SigningCertificates, SubscriptionConfirmer } from '../domain/ports';

/** A provider's certificate is a few KB; a longer answer is no certificate (RESPONSE_TOO_LARGE). */
export const MAX_CERTIFICATE_BYTES = 65_536;

export interface ProviderCallsOptions {
  /**
   * `createSender` of @relay/targets, made with `maxResponseBytes` and `responseLimitBytes` of
   * MAX_CERTIFICATE_BYTES: SSRF guard on the resolved address, host routes, timeout, no redirects
   */
  send: (req: HttpRequest) => Promise<SendOutcome>;
  /** PEM trust anchors besides Node's bundled roots (NODE_EXTRA_CA_CERTS's file) */
  extraAnchors: string;
  /** certificates kept (least recently used dropped first) */
  maxEntries: number;
  /** a kept certificate is fetched again after this long at the latest (and at its notAfter) */
  maxAgeMs: number;
  logger: Logger;
}

interface Kept {
  answer: CertificateAnswer;
  until: number;
}

/**
 * The provider calls of certificate-signed presets (docs/inbound-auth.md "Certificate-signed
 * presets"): signing certificates fetched, checked and kept, and SNS subscription confirmations.
 *
 * Kept: a bounded LRU by provider and URL, each entry until the earlier of its chain's notAfter
 * and `maxAgeMs` (a refused certificate for `maxAgeMs`: a URL's content does not change to a
 * trusted one). Concurrent requests for a URL not kept share one fetch. A fetch that failed is
 * not kept, so the next request tries again; every fetch is bounded by the sender's timeout, so
 * a slow provider holds only its own endpoints' requests.
 */
export function createProviderCalls(opts: ProviderCallsOptions): {
  certificates: SigningCertificates;
  subscriptions: SubscriptionConfirmer;
} {
  const anchors = [...rootCertificates, ...pemBlocks(opts.extraAnchors)].flatMap((pem) => {
    try {
      return [new X509Certificate(pem)];
    } catch {
      return [];
    }
  });
  const kept = new Map<string, Kept>();
  const inFlight = new Map<string, Promise<CertificateAnswer>>();

  const fetchCertificate = async (
    url: string,
    provider: CertificateProvider,
    now: Date,
  ): Promise<CertificateAnswer> => {
    const outcome = await opts.send({
      url,
      method: 'GET',
      headers: { accept: '*/*' },
      body: Buffer.alloc(0),
      resendable: true,
    });
    const problem =
      'error' in outcome
        ? outcome.error.code
        : outcome.response.status !== 200
          ? `HTTP ${outcome.response.status}`
          : null;
    if (problem !== null) {
      opts.logger.warn('signing certificate not fetched', {
        provider,
        url,
        problem,
        duration_ms: Math.round(outcome.durationMs),
      });
      return { ok: false, unavailable: problem };
    }
    const answer = checkSigningCertificate(
      (outcome as { response: { body: string } }).response.body,
      anchors,
      provider,
      now,
    );
    if (!answer.ok) opts.logger.warn('signing certificate refused', { provider, url, problem: answer.untrusted });
    const until = answer.ok
      ? Math.min(now.getTime() + opts.maxAgeMs, answer.notAfter.getTime())
      : now.getTime() + opts.maxAgeMs;
    kept.set(`${provider} ${url}`, { answer, until });
    if (kept.size > opts.maxEntries) kept.delete(kept.keys().next().value as string);
    return answer;
  };

  return {
    certificates: {
      get(url, provider, now) {
        const key = `${provider} ${url}`;
        const entry = kept.get(key);
        if (entry && entry.until > now.getTime()) {
          // least recently used leaves first: a hit moves to the end
          kept.delete(key);
          kept.set(key, entry);
          return Promise.resolve(entry.answer);
        }
        if (entry) kept.delete(key);
        const pending = inFlight.get(key);
        if (pending) return pending;
        const fetching = fetchCertificate(url, provider, now).finally(() => inFlight.delete(key));
        inFlight.set(key, fetching);
        return fetching;
      },
    },
    subscriptions: {
      async confirm(url) {
        const outcome = await opts.send({ url, method: 'GET', headers: { accept: '*/*' }, body: Buffer.alloc(0) });
        if ('error' in outcome) return { ok: false, problem: outcome.error.code };
        const { status } = outcome.response;
        return status >= 200 && status < 300 ? { ok: true } : { ok: false, problem: `HTTP ${status}` };
      },
    },
  };
}

function pemBlocks(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}
