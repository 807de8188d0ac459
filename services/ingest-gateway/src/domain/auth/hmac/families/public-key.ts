import { createPublicKey, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { PublicKeyScheme } from '@relay/endpoints';
import type { PresetVerifier } from '../preset';
import { verifySignedScheme } from './signed-scheme';

/** DER SubjectPublicKeyInfo header for a raw 32-byte Ed25519 key (RFC 8410). */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Family `public_key`: Ed25519 (Discord, Telnyx), ECDSA P-256 (SendGrid) or RSA (Wise) over a recipe. The
 * endpoint's "secrets" are the provider's public keys, so a second entry still allows moving to
 * another application. Every key is tried (no early exit).
 */
export const verifyPublicKeyFamily: PresetVerifier = (req, ctx) => {
  const spec = ctx.info.spec;
  const scheme = spec.scheme as PublicKeyScheme;
  const shape = scheme.algorithm === 'ed25519' ? { ...scheme, signatureBytes: 64 } : scheme;
  return verifySignedScheme(
    spec,
    shape,
    (secrets, contents, signatures) => {
      const keys = secrets.map((s) => publicKey(s, scheme.key));
      let matched = false;
      for (const key of keys) {
        for (const parts of contents) {
          const message = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));
          for (const sig of signatures) matched = verifyOne(scheme, key, message, sig) || matched;
        }
      }
      return matched;
    },
    req,
    ctx,
  );
};

function verifyOne(scheme: PublicKeyScheme, key: KeyObject | undefined, message: Buffer, signature: Buffer): boolean {
  if (key === undefined) return false;
  if (scheme.algorithm === 'ed25519') return signature.length === 64 && verify(null, message, key, signature);
  // The key must be of the preset's type, so an EC key cannot stand in for an RSA preset's key.
  if (key.asymmetricKeyType !== (scheme.algorithm === 'rsa_sha256' ? 'rsa' : 'ec')) return false;
  try {
    // ECDSA (DER signature) and RSA PKCS#1 v1.5 both verify as "sha256" with the key's type.
    return verify('sha256', message, key, signature);
  } catch {
    // A DER signature that does not parse is a mismatch, not an error.
    return false;
  }
}

/**
 * Parsed keys, by form and text: parsing a key costs more than verifying with it (an Ed25519 key
 * took ~1.4 ms to import against ~0.1 ms to verify, bench/verify-families.js). Public keys only,
 * so keeping them is no secret; bounded, the oldest entry leaves first.
 */
const PARSED = new Map<string, KeyObject | undefined>();
const MAX_PARSED = 1000;

function publicKey(text: string, form: PublicKeyScheme['key']): KeyObject | undefined {
  const id = `${form}\n${text}`;
  if (PARSED.has(id)) return PARSED.get(id);
  const key = parseKey(text, form);
  if (PARSED.size >= MAX_PARSED) PARSED.delete(PARSED.keys().next().value as string);
  PARSED.set(id, key);
  return key;
}

function parseKey(text: string, form: PublicKeyScheme['key']): KeyObject | undefined {
  try {
    if (form === 'spki_base64')
      return createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
    if (form === 'pem') return createPublicKey({ key: text, format: 'pem' });
    const raw = Buffer.from(text, form === 'ed25519_hex' ? 'hex' : 'base64');
    return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
}
