import type { ApiKeyInboundAuth, BasicInboundAuth, BearerInboundAuth } from '@relay/endpoints';
import { credentialEquals } from './constant-time';
import { fail, headerValue, malformedHeader, missingHeader, PASS } from './request';
import type { InboundRequest, VerifyResult } from './request';

/** Checks every stored credential (no early exit), so timing does not tell which slot matched. */
function anyMatches<T>(stored: readonly T[], matches: (s: T) => boolean): boolean {
  let matched = false;
  for (const s of stored) matched = matches(s) || matched;
  return matched;
}

/** `Authorization: <scheme> <value>`; the scheme is case-insensitive (RFC 9110 §11.1). */
function authorizationParam(req: InboundRequest, scheme: string): VerifyResult | string {
  const value = headerValue(req, 'authorization');
  if (value === undefined) return missingHeader('Authorization');
  const match = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) +(\S.*)$/.exec(value);
  if (!match) return malformedHeader('Authorization');
  if (match[1]?.toLowerCase() !== scheme.toLowerCase()) return fail(`Authorization scheme is not ${scheme}`);
  return match[2] ?? '';
}

/** Spec "Authentication/Inbound": `Authorization: Basic base64(<USERNAME>:<PASSWORD>)`. */
export function verifyBasic(setting: BasicInboundAuth, req: InboundRequest): VerifyResult {
  const param = authorizationParam(req, 'Basic');
  if (typeof param !== 'string') return param;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(param)) return malformedHeader('Authorization');
  const decoded = Buffer.from(param, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return malformedHeader('Authorization');
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  const ok = anyMatches(setting.credentials, (c) => {
    const userOk = credentialEquals(username, c.username);
    const passwordOk = credentialEquals(password, c.password);
    return userOk && passwordOk;
  });
  return ok ? PASS : fail('wrong username or password');
}

/** Spec "Authentication/Inbound": `Authorization: Bearer <token>`. */
export function verifyBearer(setting: BearerInboundAuth, req: InboundRequest): VerifyResult {
  const token = authorizationParam(req, 'Bearer');
  if (typeof token !== 'string') return token;
  return anyMatches(setting.tokens, (t) => credentialEquals(token, t)) ? PASS : fail('wrong bearer token');
}

/** Spec "Authentication/Inbound": `<configured-header-name>: <API_KEY>`; the name matches case-insensitively, the value exactly. */
export function verifyApiKey(setting: ApiKeyInboundAuth, req: InboundRequest): VerifyResult {
  const key = headerValue(req, setting.header);
  if (key === undefined) return missingHeader(setting.header);
  return anyMatches(setting.keys, (k) => credentialEquals(key, k)) ? PASS : fail('wrong API key');
}
