import { createHash, timingSafeEqual } from 'node:crypto';
import type { UrlFormScheme } from '@relay/endpoints';
import { anyMacMatches, decodeSignature, hmac } from '../../constant-time';
import { fail, headerValue, malformedHeader, missingHeader, PASS, SIGNATURE_MISMATCH } from '../../request';
import type { InboundRequest } from '../../request';
import type { PresetVerifier } from '../preset';
import { urlPortVariants } from '../url-variants';

/**
 * Family `url_form` (Twilio, Mandrill): `<header>: <base64 HMAC(secret, signed data)>`.
 * - Form POST: data = full URL + each POST parameter name and value, sorted by name (repeated
 *   names: distinct values sorted), no separators.
 * - With `bodySha256Param` (Twilio) and a `bodySHA256=<hex SHA-256 of the body>` query
 *   parameter: data = URL only, and the body must hash to that value.
 * - Anything else (e.g. GET): data = URL only.
 * Like Twilio's validator, the URL is tried as received and with the default port removed/added.
 */
export const verifyUrlFormFamily: PresetVerifier = (req, { secrets, info }) => {
  const scheme = info.spec.scheme as UrlFormScheme;
  if (info.spec.signature === undefined) return fail('preset has no signature header');
  const header = info.spec.signature.header;
  const value = headerValue(req, header);
  if (value === undefined) return missingHeader(header);
  const signature = decodeSignature(value, scheme.encoding);
  if (signature === undefined) return malformedHeader(header);

  const bodyHash = scheme.bodySha256Param ? bodySha256Param(req.url) : undefined;
  if (bodyHash !== undefined && !bodyMatchesHash(req.rawBody, bodyHash)) return fail('body does not match bodySHA256');
  const params = bodyHash === undefined && isForm(req) ? sortedFormParams(req.rawBody) : '';
  const expected = secrets.flatMap((secret) =>
    urlPortVariants(req.url).map((url) => hmac(scheme.algorithm, secret, url + params)),
  );
  return anyMacMatches(expected, [signature]) ? PASS : SIGNATURE_MISMATCH;
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
    .map((name) =>
      [...(byName.get(name) ?? [])]
        .sort()
        .map((v) => name + v)
        .join(''),
    )
    .join('');
}
