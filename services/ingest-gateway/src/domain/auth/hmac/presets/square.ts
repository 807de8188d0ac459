import { decodeSignature } from '../../constant-time';
import { headerValue, malformedHeader, missingHeader } from '../../request';
import { verifyHmac } from '../mac';
import type { PresetVerifier } from '../preset';
import { urlPortVariants } from '../url-variants';

/**
 * Square: `x-square-hmacsha256-signature: <base64 HMAC-SHA256(signature key, notification URL + body)>`.
 * The URL is the one the sender used; as for Twilio, the default port is tried added and removed.
 */
export const verifySquare: PresetVerifier = (req, { secrets, info }) => {
  const value = headerValue(req, info.signatureHeader);
  if (value === undefined) return missingHeader(info.signatureHeader);
  const signature = decodeSignature(value, 'base64');
  if (signature === undefined) return malformedHeader(info.signatureHeader);
  const [first = req.url, ...others] = urlPortVariants(req.url);
  let result = verifyHmac(secrets, 'sha256', [first, req.rawBody], [signature]);
  for (const url of others) if (!result.ok) result = verifyHmac(secrets, 'sha256', [url, req.rawBody], [signature]);
  return result;
};
