import { anyMacMatches, hmac } from '../constant-time';
import type { DigestAlgorithm } from '../constant-time';
import { PASS, SIGNATURE_MISMATCH } from '../request';
import type { VerifyResult } from '../request';

/**
 * The common core of the HMAC presets: MAC the signed content with each active secret (either
 * rotation slot may match) and compare with each received signature in constant time.
 */
export function verifyHmac(
  secrets: readonly (string | Buffer)[],
  algorithm: DigestAlgorithm,
  signedContent: readonly (string | Buffer)[],
  received: readonly Buffer[],
): VerifyResult {
  const expected = secrets.map((secret) => hmac(algorithm, secret, ...signedContent));
  return anyMacMatches(expected, received) ? PASS : SIGNATURE_MISMATCH;
}

/** Strips a fixed prefix such as "sha256=" or "v0="; undefined when it is absent. */
export function afterPrefix(value: string, prefix: string): string | undefined {
  return value.startsWith(prefix) ? value.slice(prefix.length) : undefined;
}
