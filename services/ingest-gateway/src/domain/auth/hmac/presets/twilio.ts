import { createHash, timingSafeEqual } from 'node:crypto';
import { decodeSignature } from '../../constant-time';
import { fail, headerValue, malformedHeader, missingHeader } from '../../request';
import type { InboundRequest } from '../../request';
import { verifyHmac } from '../mac';
import type { PresetVerifier } from '../preset';
import { urlPortVariants } from '../url-variants';

/**
 * Twilio: `X-Twilio-Signature: <base64 HMAC-SHA1(auth token, signed data)>`.
 * - Form POST: data = full URL + each POST parameter name and value, sorted by name (repeated
 *   names: distinct values sorted), no separators.
 * - JSON body: the URL carries `bodySHA256=<hex SHA-256 of the body>`; data = URL only, and the
 *   body must hash to that value.
 * - Anything else (e.g. GET): data = URL only.
 * Like Twilio's validator, the URL is tried as received and with the default port removed/added.
 */
export const verifyTwilio: PresetVerifier = (req, { secrets, info }) => {
  const value = headerValue(req, info.signatureHeader);
  if (value === undefined) return missingHeader(info.signatureHeader);
  const signature = decodeSignature(value, 'base64');
  if (signature === undefined) return malformedHeader(info.signatureHeader);

  const bodyHash = bodySha256Param(req.url);
  if (bodyHash !== undefined && !bodyMatchesHash(req.rawBody, bodyHash)) return fail('body does not match bodySHA256');
  const params = bodyHash === undefined && isForm(req) ? sortedFormParams(req.rawBody) : '';
  const candidates = urlPortVariants(req.url).map((url) => url + params);
  let result = verifyHmac(secrets, 'sha1', [candidates[0] ?? ''], [signature]);
  for (const data of candidates.slice(1)) if (!result.ok) result = verifyHmac(secrets, 'sha1', [data], [signature]);
  return result;
};

function bodySha256Param(url: string): string | undefined {
  try {
    return new URL(url).searchParams.get('bodySHA256') ?? undefined;
  } catch {
    return undefined;
  }
}

function bodyMatchesHash(body: Buffer, hexHash: string): boolean {
  const expected = createHash('sha256').update(body).digest();
  const received = decodeSignature(hexHash, 'hex');
  return received !== undefined && received.length === expected.length && timingSafeEqual(expected, received);
}

function isForm(req: InboundRequest): boolean {
  return (headerValue(req, 'content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
}

function sortedFormParams(body: Buffer): string {
  const byName = new Map<string, Set<string>>();
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
    const values = byName.get(name) ?? new Set<string>();
    values.add(value);
    byName.set(name, values);
  }
  return [...byName.keys()]
    .sort()
    .map((name) => [...(byName.get(name) ?? [])].sort().map((v) => name + v).join(''))
    .join('');
}
