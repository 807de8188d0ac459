import { createHmac, sign } from 'node:crypto';
import type { BinaryLike, KeyObject } from 'node:crypto';

/**
 * Test-side crypto for the documented signers, written with node:crypto and nothing from the
 * code under test, so a preset's description is checked against a second reading of the docs.
 */
export type Algo = 'md5' | 'sha1' | 'sha256' | 'sha512';

export function mac(algo: Algo, key: BinaryLike, ...parts: (string | Buffer)[]): Buffer {
  const h = createHmac(algo, key);
  for (const p of parts) h.update(p);
  return h.digest();
}

export const hex = (algo: Algo, key: BinaryLike, ...parts: (string | Buffer)[]): string =>
  mac(algo, key, ...parts).toString('hex');
export const b64 = (algo: Algo, key: BinaryLike, ...parts: (string | Buffer)[]): string =>
  mac(algo, key, ...parts).toString('base64');
export const b64url = (algo: Algo, key: BinaryLike, ...parts: (string | Buffer)[]): string =>
  mac(algo, key, ...parts).toString('base64url');

export function ed25519(privateKey: KeyObject | undefined, ...parts: (string | Buffer)[]): Buffer {
  if (privateKey === undefined) throw new Error('test credentials lack a private key');
  return sign(null, Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))), privateKey);
}

/** ECDSA with a P-256 key, or RSA PKCS#1 v1.5 with an RSA key: node picks by the key's type. */
export function ecdsaSha256(privateKey: KeyObject | undefined, ...parts: (string | Buffer)[]): Buffer {
  if (privateKey === undefined) throw new Error('test credentials lack a private key');
  return sign('sha256', Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))), privateKey);
}

export function rsaSha256(privateKey: KeyObject | undefined, ...parts: (string | Buffer)[]): Buffer {
  return ecdsaSha256(privateKey, ...parts);
}

/** Unix seconds and milliseconds of a signing time, as text. */
export const secs = (at: Date): string => String(Math.floor(at.getTime() / 1000));
export const millis = (at: Date): string => String(at.getTime());
/** RFC 3339 with a Z zone and no fraction, as Zendesk and Box send it. */
export const iso = (at: Date): string => at.toISOString().replace(/\.\d{3}Z$/, 'Z');
