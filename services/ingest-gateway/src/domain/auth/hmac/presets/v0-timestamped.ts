import { decodeSignature } from '../../constant-time';
import { headerValue, malformedHeader, missingHeader } from '../../request';
import { afterPrefix, verifyHmac } from '../mac';
import type { PresetVerifier } from '../preset';
import { checkTimestamp, parseTimestamp } from '../timestamp';

/**
 * The "v0" scheme shared by Slack and Zoom: signature header `v0=<hex>`, timestamp header,
 * HMAC-SHA256(secret, "v0:" + timestamp + ":" + body). Slack: X-Slack-Signature and
 * X-Slack-Request-Timestamp, 5 minutes. Zoom: x-zm-signature and x-zm-request-timestamp, 300 s.
 */
export const verifyV0Timestamped: PresetVerifier = (req, { secrets, info, now, toleranceSeconds }) => {
  const timestampHeader = info.timestampHeader ?? '';
  const value = headerValue(req, info.signatureHeader);
  if (value === undefined) return missingHeader(info.signatureHeader);
  const timestamp = headerValue(req, timestampHeader);
  if (timestamp === undefined) return missingHeader(timestampHeader);
  const ts = parseTimestamp(timestamp);
  if (ts === undefined) return malformedHeader(timestampHeader);
  const hex = afterPrefix(value, 'v0=');
  const signature = hex === undefined ? undefined : decodeSignature(hex, 'hex');
  if (signature === undefined) return malformedHeader(info.signatureHeader);
  const result = verifyHmac(secrets, 'sha256', [`v0:${timestamp}:`, req.rawBody], [signature]);
  return result.ok ? checkTimestamp(ts, now, toleranceSeconds) : result;
};
