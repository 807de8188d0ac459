import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { parseKeys, SecretBoxError } from './keys';
import type { SecretKey } from './keys';

/**
 * Encrypts secrets at rest (target credentials, sensitive header values, signing secrets).
 * The stored form names the key that sealed it, so keys can rotate:
 *   enc:v1:<key id>:<iv base64url>:<tag base64url>:<ciphertext base64url>
 */
export interface SecretBox {
  encrypt(plaintext: string): string;
  decrypt(stored: string): string;
  /** true for a value in the stored form (says nothing about whether it decrypts) */
  isEncrypted(value: string): boolean;
  /** the key id a stored value was sealed with */
  keyIdOf(stored: string): string;
  /** the key new values are sealed with; a stored value with another id is due for re-encryption */
  readonly primaryKeyId: string;
}

const PREFIX = 'enc:v1:';
const IV_BYTES = 12; // the GCM standard nonce size
const TAG_BYTES = 16;

interface Sealed {
  keyId: string;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

function parseSealed(stored: string): Sealed {
  const parts = stored.startsWith(PREFIX) ? stored.slice(PREFIX.length).split(':') : [];
  if (parts.length !== 4)
    throw new SecretBoxError(
      'SECRET_MALFORMED',
      'not an encrypted secret (expected enc:v1:<key id>:<iv>:<tag>:<ciphertext>)',
    );
  const [keyId = '', iv = '', tag = '', ciphertext = ''] = parts;
  const sealed = {
    keyId,
    iv: Buffer.from(iv, 'base64url'),
    tag: Buffer.from(tag, 'base64url'),
    ciphertext: Buffer.from(ciphertext, 'base64url'),
  };
  if (sealed.iv.length !== IV_BYTES || sealed.tag.length !== TAG_BYTES)
    throw new SecretBoxError('SECRET_MALFORMED', 'encrypted secret has a malformed iv or tag');
  return sealed;
}

/** The header is authenticated too, so a ciphertext cannot be relabelled with another key id or version. */
const aadFor = (keyId: string) => Buffer.from(`${PREFIX}${keyId}`, 'utf8');

/** `keys`: SECRETS_KEYS, "keyid:base64(32 bytes),keyid2:…" — the first encrypts, all decrypt. */
export function createSecretBox(keys: string): SecretBox {
  const parsed: SecretKey[] = parseKeys(keys);
  const primary = parsed[0] as SecretKey;
  const byId = new Map(parsed.map((k) => [k.id, k.key]));
  return {
    primaryKeyId: primary.id,
    encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', primary.key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aadFor(primary.id));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return `${PREFIX}${primary.id}:${iv.toString('base64url')}:${tag.toString('base64url')}:${ciphertext.toString('base64url')}`;
    },
    decrypt(stored) {
      const sealed = parseSealed(stored);
      const key = byId.get(sealed.keyId);
      if (!key)
        throw new SecretBoxError(
          'SECRET_KEY_UNKNOWN',
          `secret was encrypted with key "${sealed.keyId}", which is not configured (SECRETS_KEYS)`,
        );
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(aadFor(sealed.keyId));
      decipher.setAuthTag(sealed.tag);
      try {
        return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError(
          'SECRET_TAMPERED',
          `secret sealed with key "${sealed.keyId}" failed authentication (tampered, or the key material changed)`,
        );
      }
    },
    isEncrypted: (value) => value.startsWith(PREFIX),
    keyIdOf: (stored) => parseSealed(stored).keyId,
  };
}
