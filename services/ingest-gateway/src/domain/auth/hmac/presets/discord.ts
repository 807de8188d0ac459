import { createPublicKey, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { decodeSignature } from '../../constant-time';
import { fail, headerValue, malformedHeader, missingHeader, PASS } from '../../request';
import type { PresetVerifier } from '../preset';
import { checkTimestamp, parseTimestamp } from '../timestamp';

/** DER SubjectPublicKeyInfo header for a raw 32-byte Ed25519 key (RFC 8410). */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Discord interactions: Ed25519 over `X-Signature-Timestamp + body` with the application's
 * public key; `X-Signature-Ed25519` is the hex signature. The "secrets" are public keys, so a
 * second entry still allows moving to another application. Discord documents no replay window:
 * the timestamp is checked only when tolerance_seconds is set.
 */
export const verifyDiscord: PresetVerifier = (req, { secrets, info, now, toleranceSeconds }) => {
  const timestampHeader = info.timestampHeader ?? '';
  const value = headerValue(req, info.signatureHeader);
  if (value === undefined) return missingHeader(info.signatureHeader);
  const timestamp = headerValue(req, timestampHeader);
  if (timestamp === undefined) return missingHeader(timestampHeader);
  const signature = decodeSignature(value, 'hex');
  if (signature === undefined || signature.length !== 64) return malformedHeader(info.signatureHeader);

  const message = Buffer.concat([Buffer.from(timestamp, 'utf8'), req.rawBody]);
  let matched = false;
  for (const key of secrets) matched = verifyWith(key, message, signature) || matched;
  if (!matched) return fail('signature mismatch');
  if (toleranceSeconds === null) return PASS;
  const ts = parseTimestamp(timestamp);
  return ts === undefined ? malformedHeader(timestampHeader) : checkTimestamp(ts, now, toleranceSeconds);
};

function verifyWith(publicKeyHex: string, message: Buffer, signature: Buffer): boolean {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]), format: 'der', type: 'spki' });
  } catch {
    return false;
  }
  return verify(null, message, key, signature);
}
