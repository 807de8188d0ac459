import { createHash, X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import type { CertificateProvider } from '@relay/endpoints';
import type { Logger } from '@relay/logging';
import type { HttpRequest, SendOutcome } from '@relay/targets';
import { checkSigningCertificate, EBAY_API_SCOPE, ebayPublicKey } from '../domain/auth/certificate';
import type { ProviderOAuth } from '../domain/auth/certificate';
import { jsonObject } from '../domain/handshakes/reply';
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
  /** fetches of certificates and keys not kept, per provider, in a minute (FETCHES_PER_MINUTE) */
  fetchesPerMinute?: number;
}

/** eBay asks that a public key be kept "a reasonable amount of time (e.g., one-hour is recommended)". */
export const EBAY_KEY_MAX_AGE_MS = 3_600_000;
/** A token is minted again this long before it expires, so none expires on its way to eBay. */
export const TOKEN_REFRESH_MARGIN_MS = 60_000;
/**
 * Fetches of certificates and keys not kept, per provider and gateway process, in any minute.
 * The URL and the key id come from the request before anything is verified: without a bound, a
 * stranger naming a new one each time would make every request a fetch (and spend eBay's call
 * allowance). Providers rotate rarely, so legitimate traffic fetches a few an hour; past the
 * budget the request is answered 503 and the provider sends it again later.
 */
export const FETCHES_PER_MINUTE = 30;

/** At most `perMinute` takes in any clock minute, per name. */
function fetchBudget(perMinute: number) {
  const spent = new Map<string, { minute: number; count: number }>();
  return (name: string, now: number): boolean => {
    const minute = Math.floor(now / 60_000);
    const at = spent.get(name);
    if (!at || at.minute !== minute) {
      spent.set(name, { minute, count: 1 });
      return true;
    }
    at.count += 1;
    return at.count <= perMinute;
  };
}

/**
 * Answers kept by key until a time of their own, at most `maxEntries` (least recently used leave
 * first); concurrent misses for one key share one `load`. A load that throws, or answers an
 * `until` of null, is not kept.
 */
function keptLoads<T>(maxEntries: number) {
  const kept = new Map<string, { value: T; until: number }>();
  const inFlight = new Map<string, Promise<T>>();
  return {
    get(key: string, now: number, load: () => Promise<{ value: T; until: number | null }>): Promise<T> {
      const entry = kept.get(key);
      if (entry) {
        kept.delete(key);
        // a hit moves to the end: least recently used leaves first
        if (entry.until > now) {
          kept.set(key, entry);
          return Promise.resolve(entry.value);
        }
      }
      const pending = inFlight.get(key);
      if (pending) return pending;
      const loading = load()
        .then(({ value, until }) => {
          if (until !== null) {
            kept.set(key, { value, until });
            if (kept.size > maxEntries) kept.delete(kept.keys().next().value as string);
          }
          return value;
        })
        .finally(() => inFlight.delete(key));
      inFlight.set(key, loading);
      return loading;
    },
    drop(key: string): void {
      kept.delete(key);
    },
  };
}

type TokenAnswer = { ok: true; token: string } | { ok: false; unavailable: string };

/**
 * The provider calls of certificate-signed presets (docs/inbound-auth.md "Certificate-signed
 * presets"): signing certificates fetched, checked and kept; eBay's public keys fetched by key id
 * with an application access token, both kept; SNS subscription confirmations.
 *
 * Kept: bounded LRUs by provider and URL, each certificate until the earlier of its chain's
 * notAfter and `maxAgeMs` (a refused one for `maxAgeMs`: a URL's content does not change to a
 * trusted one), an eBay key for at most EBAY_KEY_MAX_AGE_MS, a token until a minute before it
 * expires. Concurrent requests for a URL (or credentials) not kept share one fetch. A fetch that
 * failed is not kept, so the next request tries again; every fetch is bounded by the sender's
 * timeout, so a slow provider holds only its own endpoints' requests.
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
  const certificates = keptLoads<CertificateAnswer>(opts.maxEntries);
  const fetchesPerMinute = opts.fetchesPerMinute ?? FETCHES_PER_MINUTE;
  const budget = fetchBudget(fetchesPerMinute);
  const tokens = keptLoads<TokenAnswer>(opts.maxEntries);

  const problemOf = (outcome: SendOutcome): string | null =>
    'error' in outcome
      ? outcome.error.code
      : outcome.response.status !== 200
        ? `HTTP ${outcome.response.status}`
        : null;

  /** An application access token (client credentials grant), kept under a hash of the credentials. */
  const tokenFor = (oauth: ProviderOAuth, now: Date): Promise<TokenAnswer> =>
    tokens.get(tokenKey(oauth), now.getTime(), async () => {
      const outcome = await opts.send({
        url: oauth.tokenUrl,
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(oauth.clientCredentials, 'utf8').toString('base64')}`,
        },
        body: Buffer.from(new URLSearchParams({ grant_type: 'client_credentials', scope: EBAY_API_SCOPE }).toString()),
        // a second exchange only mints a second token
        resendable: true,
      });
      const problem = problemOf(outcome);
      const parsed =
        problem === null
          ? jsonObject(Buffer.from((outcome as { response: { body: string } }).response.body))
          : undefined;
      const token = parsed?.access_token;
      const expiresIn = parsed?.expires_in;
      if (typeof token !== 'string' || typeof expiresIn !== 'number') {
        const why = problem ?? 'the answer has no access_token and expires_in';
        opts.logger.warn('provider access token not minted', { url: oauth.tokenUrl, problem: why });
        return { value: { ok: false, unavailable: `access token: ${why}` }, until: null };
      }
      return { value: { ok: true, token }, until: now.getTime() + expiresIn * 1000 - TOKEN_REFRESH_MARGIN_MS };
    });

  const fetchEbayKey = async (url: string, oauth: ProviderOAuth, now: Date) => {
    const minted = await tokenFor(oauth, now);
    if (!minted.ok) return { value: minted, until: null };
    const outcome = await opts.send({
      url,
      method: 'GET',
      headers: { accept: 'application/json', authorization: `Bearer ${minted.token}` },
      body: Buffer.alloc(0),
      resendable: true,
    });
    const status = 'error' in outcome ? null : outcome.response.status;
    // eBay answers 404 for a key id it never issued: the request is not eBay's
    if (status === 404) {
      const answer: CertificateAnswer = { ok: false, untrusted: 'eBay has no public key with this kid' };
      return { value: answer, until: now.getTime() + Math.min(opts.maxAgeMs, EBAY_KEY_MAX_AGE_MS) };
    }
    // a refused token is minted again on the next request
    if (status === 401) tokens.drop(tokenKey(oauth));
    const problem = problemOf(outcome);
    if (problem !== null) {
      opts.logger.warn('signing certificate not fetched', { provider: 'ebay', url, problem });
      return { value: { ok: false, unavailable: problem } as CertificateAnswer, until: null };
    }
    const until = now.getTime() + Math.min(opts.maxAgeMs, EBAY_KEY_MAX_AGE_MS);
    const answer = ebayPublicKey((outcome as { response: { body: string } }).response.body, new Date(until));
    if (!answer.ok)
      opts.logger.warn('signing certificate refused', { provider: 'ebay', url, problem: answer.untrusted });
    return { value: answer as CertificateAnswer, until };
  };

  const fetchCertificate = async (url: string, provider: CertificateProvider, now: Date) => {
    const outcome = await opts.send({
      url,
      method: 'GET',
      headers: { accept: '*/*' },
      body: Buffer.alloc(0),
      resendable: true,
    });
    const problem = problemOf(outcome);
    if (problem !== null) {
      opts.logger.warn('signing certificate not fetched', {
        provider,
        url,
        problem,
        duration_ms: Math.round(outcome.durationMs),
      });
      return { value: { ok: false, unavailable: problem } as CertificateAnswer, until: null };
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
    return { value: answer as CertificateAnswer, until };
  };

  return {
    certificates: {
      get(url, provider, now, oauth) {
        return certificates.get(`${provider} ${url}`, now.getTime(), async () => {
          if (!budget(provider, now.getTime())) {
            opts.logger.warn('signing certificate not fetched', { provider, url, problem: 'fetch budget spent' });
            const spent: CertificateAnswer = {
              ok: false,
              unavailable: `more than ${fetchesPerMinute} new ${provider} certificates or keys this minute`,
            };
            return { value: spent, until: null };
          }
          return oauth ? fetchEbayKey(url, oauth, now) : fetchCertificate(url, provider, now);
        });
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

/** Tokens are kept under a hash: a replaced secret never reuses the old one's token. */
function tokenKey(oauth: ProviderOAuth): string {
  return `${oauth.tokenUrl} ${createHash('sha256').update(oauth.clientCredentials).digest('hex')}`;
}

function pemBlocks(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}
