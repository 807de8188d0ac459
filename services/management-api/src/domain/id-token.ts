import { jwtVerify } from 'jose';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';

/** What a sign-in learns from a checked ID token. */
export interface IdentityClaims {
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
}

export interface IdTokenExpectations {
  /** the issuer as configured, which discovery confirmed (OIDC Discovery §4.3) */
  issuer: string;
  clientId: string;
  /** the nonce this sign-in sent in its authorization request */
  nonce: string;
  /** the issuer's signing keys (its `jwks_uri`) */
  keys: JWTVerifyGetKey;
  /** allowed difference between the provider's clock and ours */
  clockToleranceSeconds?: number;
  now?: () => Date;
}

/** The ID token is not acceptable; the reason is for the log, not the person signing in. */
export class IdTokenError extends Error {}

/** Signature algorithms accepted: asymmetric only, so the client secret never signs a token we trust. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** an ID token issued longer ago than this is refused whatever its `exp` (OIDC Core 3.1.3.7 step 10) */
const MAX_AGE_SECONDS = 600;

/**
 * The ID token checks of OIDC Core 3.1.3.7 for the authorization code flow: signature by one of
 * the issuer's keys (step 6; `alg` asymmetric, step 7), `iss` equal to the issuer (step 2), `aud`
 * containing the client id (step 3) with `azp` equal to it when present or when there are several
 * audiences (steps 4, 5), `exp` not passed (step 9), `iat` present and recent (step 10), and
 * `nonce` equal to the one sent (step 11). `sub` must be there: it is the person's identity.
 */
export async function checkIdToken(token: string, expect: IdTokenExpectations): Promise<IdentityClaims> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, expect.keys, {
      issuer: expect.issuer,
      audience: expect.clientId,
      algorithms: ALGORITHMS,
      requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat'],
      clockTolerance: expect.clockToleranceSeconds ?? 60,
      maxTokenAge: MAX_AGE_SECONDS,
      ...(expect.now ? { currentDate: expect.now() } : {}),
    }));
  } catch (err) {
    throw new IdTokenError(`ID token refused: ${(err as Error).message}`);
  }
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  const azp = payload.azp;
  if ((audiences.length > 1 || azp !== undefined) && azp !== expect.clientId)
    throw new IdTokenError('ID token refused: azp is not this client');
  if (typeof payload.nonce !== 'string' || payload.nonce !== expect.nonce)
    throw new IdTokenError('ID token refused: nonce does not match the sign-in');
  const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
  return {
    issuer: expect.issuer,
    subject: payload.sub!,
    email: payload.email_verified === false ? null : text(payload.email),
    name: text(payload.name),
  };
}
