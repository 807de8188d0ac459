import { createPublicKey, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { fail, headerValue, PASS, SIGNATURE_MISMATCH } from '../request';
import type { InboundRequest } from '../request';
import { jsonObject } from '../../handshakes/reply';
import { base64Signature, refused } from './plan';
import type { CertificatePlan } from './plan';
import type { TrustVerdict } from './trust';

const HEADER = 'x-ebay-signature';

/** eBay's key ids are UUIDs; a tighter shape than the path segment needs keeps the URL plain. */
const KID = /^[A-Za-z0-9_-]{1,128}$/;

/** OAuth scope of an application access token (developer.ebay.com "Client credentials grant flow"). */
export const EBAY_API_SCOPE = 'https://api.ebay.com/oauth/api_scope';

/**
 * eBay's notification signature (developer.ebay.com Notification API overview; eBay's event
 * notification SDKs): `X-EBAY-SIGNATURE` is base64 of JSON `{alg, kid, signature, digest}`; the
 * signature is ECDSA with the named digest (SHA1) over the body, base64 DER. The public key for
 * `kid` comes from `GET https://<api host>/commerce/notification/v1/public_key/{kid}` with an
 * application access token minted from `clientCredentials` (`<App ID>:<Cert ID>`).
 */
export function ebayPlan(req: InboundRequest, apiHost: string, clientCredentials: string | undefined): CertificatePlan {
  const header = headerValue(req, HEADER);
  if (header === undefined) return refused(`missing ${HEADER} header`);
  const decoded = base64Signature(header);
  const fields = decoded === undefined ? undefined : jsonObject(decoded);
  const text = (name: string): string | undefined =>
    typeof fields?.[name] === 'string' ? (fields[name] as string) : undefined;
  if (fields === undefined) return refused(`malformed ${HEADER} header (not base64 of a JSON object)`);
  if (text('alg')?.toUpperCase() !== 'ECDSA') return refused(`${HEADER} alg is not ECDSA`);
  if (text('digest')?.toUpperCase() !== 'SHA1') return refused(`${HEADER} digest is not SHA1`);
  const kid = text('kid');
  if (kid === undefined || !KID.test(kid)) return refused(`${HEADER} kid is missing or not a key id`);
  const signature = base64Signature(text('signature') ?? '');
  if (signature === undefined) return refused(`${HEADER} signature is missing or not base64`);
  if (clientCredentials === undefined) return refused('the endpoint has no eBay client credentials');
  const body = req.rawBody;
  return {
    ok: true,
    signed: {
      provider: 'ebay',
      certificateUrl: `https://${apiHost}/commerce/notification/v1/public_key/${kid}`,
      oauth: { tokenUrl: `https://${apiHost}/identity/v1/oauth2/token`, clientCredentials },
      verify: (key: KeyObject) => {
        if (key.asymmetricKeyType !== 'ec') return fail("eBay's public key is not an EC key");
        return verify('sha1', body, { key, dsaEncoding: 'der' }, signature) ? PASS : SIGNATURE_MISMATCH;
      },
    },
  };
}

const PEM_PUBLIC_KEY = /^-----BEGIN PUBLIC KEY-----\s*([A-Za-z0-9+/=\s]+?)\s*-----END PUBLIC KEY-----\s*$/;

/**
 * The answer of getPublicKey, `{algorithm, digest, key}`: ECDSA with SHA1, the key PEM, which
 * eBay may send without line breaks (its SDKs reformat it). Refused: anything else. `keptUntil`
 * is when it is fetched again at the latest.
 */
export function ebayPublicKey(body: string, keptUntil: Date): TrustVerdict {
  const answer = jsonObject(Buffer.from(body, 'utf8'));
  if (answer === undefined) return { ok: false, untrusted: "eBay's public key answer is not a JSON object" };
  if (String(answer.algorithm).toUpperCase() !== 'ECDSA' || String(answer.digest).toUpperCase() !== 'SHA1')
    return { ok: false, untrusted: "eBay's public key is not for ECDSA with SHA1" };
  const base64 = typeof answer.key === 'string' ? PEM_PUBLIC_KEY.exec(answer.key)?.[1] : undefined;
  if (base64 === undefined) return { ok: false, untrusted: "eBay's public key is not a PEM public key" };
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(base64.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
  } catch {
    return { ok: false, untrusted: "eBay's public key does not parse" };
  }
  if (key.asymmetricKeyType !== 'ec') return { ok: false, untrusted: "eBay's public key is not an EC key" };
  return { ok: true, key, notAfter: keptUntil };
}
