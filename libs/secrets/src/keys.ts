/** One AES-256 key and the id stored beside every ciphertext it produced. */
export interface SecretKey {
  id: string;
  key: Buffer;
}

/** A problem with the key configuration or with a stored secret; `code` says which. */
export class SecretBoxError extends Error {
  constructor(
    readonly code: 'SECRETS_CONFIG_INVALID' | 'SECRET_KEY_UNKNOWN' | 'SECRET_MALFORMED' | 'SECRET_TAMPERED',
    message: string,
  ) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * Parses `"keyid:base64(32 bytes),keyid2:base64(32 bytes)"` (SECRETS_KEYS). The first key
 * encrypts; every key decrypts, so a new key goes first and the old one stays listed until
 * every stored secret has been re-encrypted. Reports every problem at once (config fails fast);
 * key material never appears in a message.
 */
export function parseKeys(config: string): SecretKey[] {
  const problems: string[] = [];
  const keys: SecretKey[] = [];
  const entries = config
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length === 0) problems.push('no keys configured; expected "keyid:base64(32 bytes)[,keyid:…]"');
  entries.forEach((entry, i) => {
    const sep = entry.indexOf(':');
    const id = sep < 0 ? '' : entry.slice(0, sep);
    const material = sep < 0 ? '' : entry.slice(sep + 1);
    if (!KEY_ID.test(id)) {
      problems.push(`key ${i + 1}: id must be 1–32 of A-Z a-z 0-9 _ - followed by ":"`);
      return;
    }
    if (keys.some((k) => k.id === id)) problems.push(`key ${i + 1}: duplicate key id "${id}"`);
    const key = BASE64.test(material) ? Buffer.from(material, 'base64') : Buffer.alloc(0);
    if (key.length !== 32) problems.push(`key "${id}": must be base64 of exactly 32 bytes (got ${key.length})`);
    else keys.push({ id, key });
  });
  if (problems.length)
    throw new SecretBoxError('SECRETS_CONFIG_INVALID', `invalid secrets key configuration: ${problems.join('; ')}`);
  return keys;
}
