import { decodeSignature } from '../../constant-time';
import { headerValue, malformedHeader, missingHeader } from '../../request';
import { verifyHmac } from '../mac';
import type { PresetVerifier } from '../preset';
import { checkTimestamp, parseTimestamp } from '../timestamp';

/**
 * Paddle Billing: `Paddle-Signature: ts=<unix>;h1=<hex>[;h1=<hex>…]`,
 * HMAC-SHA256(secret, ts + ":" + body). Several h1 appear while a secret is rotated. Replay
 * window 5 s as in Paddle's SDK unless tolerance_seconds says otherwise.
 */
export const verifyPaddle: PresetVerifier = (req, { secrets, info, now, toleranceSeconds }) => {
  const value = headerValue(req, info.signatureHeader);
  if (value === undefined) return missingHeader(info.signatureHeader);
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const item of value.split(';')) {
    const [key, val] = item.trim().split('=', 2);
    if (key === 'ts') timestamp = val;
    if (key === 'h1' && val !== undefined) {
      const signature = decodeSignature(val, 'hex');
      if (signature !== undefined) signatures.push(signature);
    }
  }
  const ts = timestamp === undefined ? undefined : parseTimestamp(timestamp);
  if (timestamp === undefined || ts === undefined || signatures.length === 0) return malformedHeader(info.signatureHeader);
  const result = verifyHmac(secrets, 'sha256', [`${timestamp}:`, req.rawBody], signatures);
  return result.ok ? checkTimestamp(ts, now, toleranceSeconds) : result;
};
