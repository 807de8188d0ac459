import { createHash } from 'node:crypto';
import type { AttemptResult, SendOutcome } from '../../kind';
import type { HttpRequest } from '../../http/send';
import { classifyGoogleAnswer, googleNetworkFailure } from './errors';
import { GOOGLE_TOKEN_URL, signAssertion } from './jwt';
import type { ServiceAccountKey } from './service-account';

export type GoogleSend = (req: HttpRequest) => Promise<SendOutcome>;
export type TokenResult = { ok: true; token: string } | { ok: false; result: AttemptResult };

export interface TokenSource {
  /** a valid access token for this key: the cached one, or a new one when it expires within a minute */
  get(key: ServiceAccountKey): Promise<TokenResult>;
  /** drops a token Google refused (401), so the next `get` asks for a new one */
  invalidate(key: ServiceAccountKey, token: string): void;
}

export interface TokenSourceOptions {
  send: GoogleSend;
  /**
   * where token requests are sent (default Google's); an operator may route them through a
   * private endpoint. The assertion's `aud` stays Google's token URL, as Google requires.
   */
  tokenUrl?: string;
  now?: () => number;
  /** distinct keys cached per process; the oldest is dropped past it */
  maxEntries?: number;
}

/** A token is replaced this long before it expires, so no request carries one that expires on the way. */
export const REFRESH_MARGIN_MS = 60_000;

/**
 * Access tokens per service-account key, cached until they expire: one
 * token request per key per hour instead of one per delivery, which also keeps Relay far from
 * the token endpoint's own limits. Concurrent deliveries for one key share one request. Keys
 * are cached under a hash of the key itself, so a replaced key never reuses the old key's
 * token; tokens live only in this process's memory.
 */
export function createTokenSource(opts: TokenSourceOptions): TokenSource {
  const now = opts.now ?? Date.now;
  const max = opts.maxEntries ?? 1_000;
  const cache = new Map<string, { token: string; expiresAt: number }>();
  const pending = new Map<string, Promise<TokenResult>>();
  const idOf = (key: ServiceAccountKey): string =>
    createHash('sha256').update(key.client_email).update('\0').update(key.private_key).digest('hex');

  const fetchToken = async (id: string, key: ServiceAccountKey): Promise<TokenResult> => {
    const started = now();
    const body = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: signAssertion(key, started),
    }).toString();
    const outcome = await opts.send({
      url: opts.tokenUrl ?? GOOGLE_TOKEN_URL,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Relay-Sheets/1' },
      body: Buffer.from(body),
      // a second exchange only issues a second token
      resendable: true,
    });
    if ('error' in outcome) return { ok: false, result: googleNetworkFailure(outcome.error.code) };
    const res = outcome.response;
    if (res.status !== 200) return { ok: false, result: classifyGoogleAnswer('Google token endpoint', res) };
    let parsed: { access_token?: unknown; expires_in?: unknown };
    try {
      parsed = JSON.parse(res.body) as typeof parsed;
    } catch {
      return {
        ok: false,
        result: { result: 'retry', status: 200, error: 'Google token endpoint: the answer is not JSON' },
      };
    }
    if (typeof parsed.access_token !== 'string' || typeof parsed.expires_in !== 'number') {
      return {
        ok: false,
        result: {
          result: 'retry',
          status: 200,
          error: 'Google token endpoint: the answer has no access_token/expires_in',
        },
      };
    }
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    cache.set(id, { token: parsed.access_token, expiresAt: started + parsed.expires_in * 1000 });
    return { ok: true, token: parsed.access_token };
  };

  return {
    get: (key) => {
      const id = idOf(key);
      const cached = cache.get(id);
      if (cached && now() < cached.expiresAt - REFRESH_MARGIN_MS)
        return Promise.resolve({ ok: true, token: cached.token });
      const inFlight = pending.get(id);
      if (inFlight) return inFlight;
      const request = fetchToken(id, key).finally(() => pending.delete(id));
      pending.set(id, request);
      return request;
    },
    invalidate: (key, token) => {
      const id = idOf(key);
      if (cache.get(id)?.token === token) cache.delete(id);
    },
  };
}
