import { createSign } from 'node:crypto';
import type { ServiceAccountKey } from './service-account';

/** Google's OAuth 2.0 token endpoint: the `aud` of every assertion and the only place one is sent. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
/** Read and write access to spreadsheets the service account was given (nothing else in Drive). */
export const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
/** Google accepts assertions valid for at most an hour. */
export const ASSERTION_LIFETIME_SEC = 3600;

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString('base64url');
}

/**
 * The signed JWT of the OAuth 2.0 JWT bearer grant (RFC 7523) as Google's "Using OAuth 2.0 for
 * Server to Server Applications" describes it: RS256 over `header.claims`, claims iss (the
 * service account), scope, aud (the token endpoint), iat and exp (at most an hour later).
 * Node's crypto signs it; no library is needed for these few lines (docs/targets-spreadsheet.md
 * "Why not google-auth-library").
 */
export function signAssertion(key: ServiceAccountKey, nowMs: number, scope = SHEETS_SCOPE): string {
  const iat = Math.floor(nowMs / 1000);
  const header = { alg: 'RS256', typ: 'JWT', ...(key.private_key_id ? { kid: key.private_key_id } : {}) };
  const claims = { iss: key.client_email, scope, aud: GOOGLE_TOKEN_URL, iat, exp: iat + ASSERTION_LIFETIME_SEC };
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = createSign('RSA-SHA256').update(signingInput).sign(key.private_key);
  return `${signingInput}.${base64url(signature)}`;
}
