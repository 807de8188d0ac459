import { decodeSignature } from '../../constant-time';
import { headerValue, malformedHeader, missingHeader, PASS } from '../../request';
import type { VerifyResult } from '../../request';
import { verifyHmac } from '../mac';
import type { PresetVerifier } from '../preset';
import { checkTimestamp, parseTimestamp } from '../timestamp';

/**
 * Linear: `linear-signature: <hex HMAC-SHA256(secret, body)>`, no prefix. The MAC covers no
 * timestamp header, so the replay window (60 s, Linear's SDK) is checked on the body's
 * `webhookTimestamp` (ms, covered by the MAC) and on the `linear-timestamp` header (ms) when
 * present; at least one of them is required.
 */
export const verifyLinear: PresetVerifier = (req, { secrets, info, now, toleranceSeconds }) => {
  const timestampHeader = info.timestampHeader ?? '';
  const value = headerValue(req, info.signatureHeader);
  if (value === undefined) return missingHeader(info.signatureHeader);
  const signature = decodeSignature(value, 'hex');
  if (signature === undefined) return malformedHeader(info.signatureHeader);
  const result = verifyHmac(secrets, 'sha256', [req.rawBody], [signature]);
  if (!result.ok) return result;

  const headerTs = headerValue(req, timestampHeader);
  const timestamps: number[] = [];
  if (headerTs !== undefined) {
    const ts = parseTimestamp(headerTs);
    if (ts === undefined) return malformedHeader(timestampHeader);
    timestamps.push(ts);
  }
  const bodyTs = bodyWebhookTimestamp(req.rawBody);
  if (bodyTs !== undefined) timestamps.push(bodyTs);
  if (timestamps.length === 0) return missingHeader(timestampHeader);
  return timestamps.reduce<VerifyResult>((acc, ts) => (acc.ok ? checkTimestamp(ts, now, toleranceSeconds, 'milliseconds') : acc), PASS);
};

function bodyWebhookTimestamp(body: Buffer): number | undefined {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    const ts = (parsed as { webhookTimestamp?: unknown } | null)?.webhookTimestamp;
    return typeof ts === 'number' && Number.isFinite(ts) ? ts : undefined;
  } catch {
    return undefined;
  }
}
