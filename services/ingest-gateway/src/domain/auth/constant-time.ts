import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { BinaryLike } from 'node:crypto';

/**
 * Compares a presented credential with a stored one by their SHA-256 digests, so neither the
 * content nor the length of the stored value leaks through timing.
 */
export function credentialEquals(presented: string, stored: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(stored, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** Constant-time equality of two MACs; the length check is safe as MAC lengths are public. */
export function macEquals(expected: Buffer, received: Buffer): boolean {
  return expected.length === received.length && timingSafeEqual(expected, received);
}

/** True when any received signature equals any expected MAC; every pair is compared. */
export function anyMacMatches(expected: readonly Buffer[], received: readonly Buffer[]): boolean {
  let matched = false;
  for (const e of expected) for (const r of received) matched = macEquals(e, r) || matched;
  return matched;
}

/** md5 only because Patreon signs with HMAC-MD5; HMAC keeps it unforgeable without the key. */
export type DigestAlgorithm = 'md5' | 'sha1' | 'sha256' | 'sha512';

export function hmac(algorithm: DigestAlgorithm, key: BinaryLike, ...parts: (string | Buffer)[]): Buffer {
  const mac = createHmac(algorithm, key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;
const BASE64URL = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2}(?:==)?|[A-Za-z0-9_-]{3}=?)?$/;

/** Strict decoding: Buffer.from silently drops bad characters, which would hide malformed input. */
export function decodeSignature(text: string, encoding: 'hex' | 'base64' | 'base64url'): Buffer | undefined {
  if (text.length === 0) return undefined;
  if (encoding === 'hex') return HEX.test(text) ? Buffer.from(text, 'hex') : undefined;
  if (encoding === 'base64url') return BASE64URL.test(text) ? Buffer.from(text, 'base64url') : undefined;
  return BASE64.test(text) ? Buffer.from(text, 'base64') : undefined;
}
