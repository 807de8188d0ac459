import { createLocalJWKSet } from 'jose';
import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import type { HttpRequest, SendOutcome } from '@relay/targets';

/** An issuer's endpoints (OIDC Discovery §3) and its signing keys. */
export interface ProviderInfo {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  keys: JWTVerifyGetKey;
}

/** Why talking to the identity provider failed; the message names what, never a secret. */
export class ProviderError extends Error {}

export interface RelyingParty {
  /** the issuer's discovery document and keys, from a short cache */
  provider(issuer: string): Promise<ProviderInfo>;
  /** the ID token the token endpoint answers for an authorization code (RFC 6749 §4.1.3, RFC 7636 §4.5) */
  redeem(args: {
    provider: ProviderInfo;
    clientId: string;
    clientSecret: string;
    code: string;
    codeVerifier: string;
    redirectUri: string;
  }): Promise<string>;
}

/** Discovery documents and keys are read again after this: a provider's rotated key is picked up within it. */
const CACHE_MS = 300_000;
/** issuers remembered at once (accounts share few) */
const CACHE_ENTRIES = 200;

/**
 * The relying party's calls to identity providers, through `send` — the SSRF-guarded sender
 * every outbound request of Relay uses (@relay/targets createSender), so an issuer an account
 * owner types cannot reach a private address unless SSRF_ALLOW_CIDRS allows it. Redirects are
 * not followed; the issuer must be exactly the `issuer` its document names (Discovery §4.3).
 */
export function createRelyingParty(send: (req: HttpRequest) => Promise<SendOutcome>): RelyingParty {
  const cache = new Map<string, { at: number; info: ProviderInfo }>();

  const getJson = async (url: string, what: string, init: Partial<HttpRequest> = {}): Promise<unknown> => {
    const outcome = await send({
      url,
      method: 'GET',
      headers: { accept: 'application/json' },
      body: Buffer.alloc(0),
      ...init,
    });
    if ('error' in outcome) throw new ProviderError(`${what}: ${outcome.error.code} ${outcome.error.message}`);
    const { status, body } = outcome.response;
    if (status < 200 || status > 299) throw new ProviderError(`${what}: HTTP ${status}`);
    try {
      return JSON.parse(body) as unknown;
    } catch {
      throw new ProviderError(`${what}: not JSON`);
    }
  };
  const urlField = (doc: Record<string, unknown>, name: string): string => {
    const v = doc[name];
    if (typeof v !== 'string' || !/^https?:\/\//.test(v)) throw new ProviderError(`discovery: ${name} is missing`);
    return v;
  };

  const load = async (issuer: string): Promise<ProviderInfo> => {
    const doc = (await getJson(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, 'discovery')) as Record<
      string,
      unknown
    >;
    if (doc.issuer !== issuer)
      throw new ProviderError(`discovery: the document names another issuer (${String(doc.issuer)})`);
    const methods = doc.code_challenge_methods_supported;
    if (Array.isArray(methods) && !methods.includes('S256'))
      throw new ProviderError('discovery: the provider does not support PKCE with S256');
    const jwks = (await getJson(urlField(doc, 'jwks_uri'), 'jwks')) as JSONWebKeySet;
    if (!Array.isArray(jwks?.keys)) throw new ProviderError('jwks: no keys');
    return {
      issuer,
      authorizationEndpoint: urlField(doc, 'authorization_endpoint'),
      tokenEndpoint: urlField(doc, 'token_endpoint'),
      keys: createLocalJWKSet(jwks),
    };
  };

  return {
    async provider(issuer) {
      const hit = cache.get(issuer);
      if (hit && Date.now() - hit.at < CACHE_MS) return hit.info;
      const info = await load(issuer);
      cache.delete(issuer);
      if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      cache.set(issuer, { at: Date.now(), info });
      return info;
    },
    async redeem({ provider, clientId, clientSecret, code, codeVerifier, redirectUri }) {
      // client_secret_basic (RFC 6749 §2.3.1): both parts form-urlencoded before base64
      const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString(
        'base64',
      );
      const body = new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: codeVerifier,
      });
      const answer = (await getJson(provider.tokenEndpoint, 'token', {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${basic}`,
        },
        body: Buffer.from(body.toString()),
      })) as { id_token?: unknown };
      if (typeof answer.id_token !== 'string') throw new ProviderError('token: the answer has no id_token');
      return answer.id_token;
    },
  };
}
