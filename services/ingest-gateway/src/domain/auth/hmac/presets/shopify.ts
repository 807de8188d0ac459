import { decodeSignature } from '../../constant-time';
import { headerValue, malformedHeader, missingHeader } from '../../request';
import { verifyHmac } from '../mac';
import type { PresetVerifier } from '../preset';

/** Shopify: `X-Shopify-Hmac-Sha256: <base64 HMAC-SHA256(secret, body)>`; no timestamp. */
export const verifyShopify: PresetVerifier = (req, { secrets, info }) => {
  const value = headerValue(req, info.signatureHeader);
  if (value === undefined) return missingHeader(info.signatureHeader);
  const signature = decodeSignature(value, 'base64');
  if (signature === undefined) return malformedHeader(info.signatureHeader);
  return verifyHmac(secrets, 'sha256', [req.rawBody], [signature]);
};
