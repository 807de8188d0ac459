import { decodeSignature } from '../../constant-time';
import { headerValue, malformedHeader, missingHeader } from '../../request';
import { verifyHmac } from '../mac';
import type { PresetVerifier } from '../preset';
import { checkTimestamp, parseTimestamp } from '../timestamp';

/**
 * Stripe: `Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`, HMAC-SHA256(secret, t + "." + body).
 * Only `v1` entries count (v0 is a test-mode scheme; Stripe sends several v1 while a sender
 * rolls its secret). Replay window 300 s, the SDK default.
 */
export const verifyStripe: PresetVerifier = (req, { secrets, info, now, toleranceSeconds }) => {
  const value = headerValue(req, info.signatureHeader);
  if (value === undefined) return missingHeader(info.signatureHeader);
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const item of value.split(',')) {
    const eq = item.indexOf('=');
    if (eq < 0) continue;
    const key = item.slice(0, eq).trim();
    const val = item.slice(eq + 1).trim();
    if (key === 't') timestamp = val;
    if (key === 'v1') {
      const signature = decodeSignature(val, 'hex');
      if (signature !== undefined) signatures.push(signature);
    }
  }
  const ts = timestamp === undefined ? undefined : parseTimestamp(timestamp);
  if (timestamp === undefined || ts === undefined || signatures.length === 0) return malformedHeader(info.signatureHeader);
  const result = verifyHmac(secrets, 'sha256', [`${timestamp}.`, req.rawBody], signatures);
  return result.ok ? checkTimestamp(ts, now, toleranceSeconds) : result;
};
