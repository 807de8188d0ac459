import { decodeSignature } from '../../constant-time';
import { headerValue, malformedHeader, missingHeader } from '../../request';
import { verifyHmac } from '../mac';
import type { PresetVerifier } from '../preset';
import { checkTimestamp, parseTimestamp } from '../timestamp';

/**
 * Standard Webhooks (`webhook-*` headers) and Svix (`svix-*`): the key is the base64 after
 * `whsec_`; HMAC-SHA256(key, id + "." + timestamp + "." + body); the signature header holds one
 * or more space-separated `v1,<base64>` entries (other versions, e.g. asymmetric `v1a`, are
 * ignored). Replay window ±300 s.
 */
export const verifyStandardWebhooks: PresetVerifier = (req, { secrets, info, now, toleranceSeconds }) => {
  const idHeader = info.idHeader ?? '';
  const timestampHeader = info.timestampHeader ?? '';
  const value = headerValue(req, info.signatureHeader);
  if (value === undefined) return missingHeader(info.signatureHeader);
  const id = headerValue(req, idHeader);
  if (id === undefined) return missingHeader(idHeader);
  const timestamp = headerValue(req, timestampHeader);
  if (timestamp === undefined) return missingHeader(timestampHeader);
  const ts = parseTimestamp(timestamp);
  if (ts === undefined) return malformedHeader(timestampHeader);

  const signatures = value
    .split(' ')
    .map((entry) => /^v1,(.+)$/.exec(entry)?.[1])
    .flatMap((b64) => (b64 === undefined ? [] : [decodeSignature(b64, 'base64')]))
    .filter((sig): sig is Buffer => sig !== undefined);
  if (signatures.length === 0) return malformedHeader(info.signatureHeader);
  const keys = secrets.map(whsecKey);
  const result = verifyHmac(keys, 'sha256', [`${id}.${timestamp}.`, req.rawBody], signatures);
  return result.ok ? checkTimestamp(ts, now, toleranceSeconds) : result;
};

/** `whsec_<base64>` (the prefix is optional, as in the reference libraries) to key bytes. */
export function whsecKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}
