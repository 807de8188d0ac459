import { randomBytes } from 'node:crypto';
import { parseKeys, SecretBoxError } from './keys';
import { createSecretBox } from './secret-box';

const key = () => randomBytes(32).toString('base64');
const K1 = `k1:${key()}`;
const K2 = `k2:${key()}`;

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof SecretBoxError ? err.code : `not a SecretBoxError: ${String(err)}`;
  }
  return undefined;
}

describe('parseKeys', () => {
  it('parses "keyid:base64(32 bytes)" entries in order', () => {
    const keys = parseKeys(`${K2}, ${K1}`);
    expect(keys.map((k) => k.id)).toEqual(['k2', 'k1']);
    expect(keys[0]?.key).toHaveLength(32);
  });

  it('accepts URL-safe base64 key material', () => {
    expect(parseKeys(`k:${randomBytes(32).toString('base64url')}`)).toHaveLength(1);
  });

  it.each([
    ['empty', ''],
    ['no key id', key()],
    ['bad key id', `bad id:${key()}`],
    ['short key', `k1:${randomBytes(16).toString('base64')}`],
    ['not base64', 'k1:not*base64!'],
    ['duplicate id', `${K1},k1:${key()}`],
  ])('rejects a %s configuration with SECRETS_CONFIG_INVALID', (_name, config) => {
    expect(codeOf(() => parseKeys(config))).toBe('SECRETS_CONFIG_INVALID');
  });

  it('reports every problem at once and never echoes key material', () => {
    const material = randomBytes(16).toString('base64');
    try {
      parseKeys(`a:${material},b b:x`);
      throw new Error('expected a failure');
    } catch (err) {
      expect((err as Error).message).toMatch(/key "a".*key 2/);
      expect((err as Error).message).not.toContain(material);
    }
  });
});

describe('createSecretBox', () => {
  it('round-trips and stores the key id beside an AES-256-GCM ciphertext', () => {
    const box = createSecretBox(K1);
    const sealed = box.encrypt('s3cret value ✓');
    expect(sealed).toMatch(/^enc:v1:k1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(sealed).not.toContain('s3cret');
    expect(box.decrypt(sealed)).toBe('s3cret value ✓');
    expect(box.isEncrypted(sealed)).toBe(true);
    expect(box.isEncrypted('s3cret')).toBe(false);
    expect(box.keyIdOf(sealed)).toBe('k1');
  });

  it('uses a fresh IV for every encryption', () => {
    const box = createSecretBox(K1);
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('rotates: the first key encrypts, every listed key decrypts', () => {
    const old = createSecretBox(K1).encrypt('before rotation');
    const rotated = createSecretBox(`${K2},${K1}`);
    expect(rotated.primaryKeyId).toBe('k2');
    expect(rotated.decrypt(old)).toBe('before rotation');
    expect(rotated.keyIdOf(rotated.encrypt('after'))).toBe('k2');
  });

  it('fails clearly for a key id that is not configured', () => {
    const sealed = createSecretBox(K1).encrypt('x');
    expect(codeOf(() => createSecretBox(K2).decrypt(sealed))).toBe('SECRET_KEY_UNKNOWN');
  });

  it('detects a tampered ciphertext, tag, or relabelled key id', () => {
    const box = createSecretBox(`${K1},${K2}`);
    const sealed = box.encrypt('payload');
    const [pre, v, id, iv, tag, ct] = sealed.split(':') as [string, string, string, string, string, string];
    const flip = (s: string) =>
      Buffer.from(Buffer.from(s, 'base64url').map((b, i) => (i === 0 ? b ^ 1 : b))).toString('base64url');
    expect(codeOf(() => box.decrypt([pre, v, id, iv, tag, flip(ct)].join(':')))).toBe('SECRET_TAMPERED');
    expect(codeOf(() => box.decrypt([pre, v, id, iv, flip(tag), ct].join(':')))).toBe('SECRET_TAMPERED');
    expect(codeOf(() => box.decrypt([pre, v, 'k2', iv, tag, ct].join(':')))).toBe('SECRET_TAMPERED');
  });

  it('fails clearly for a value that is not in the stored form', () => {
    const box = createSecretBox(K1);
    expect(codeOf(() => box.decrypt('plaintext'))).toBe('SECRET_MALFORMED');
    expect(codeOf(() => box.decrypt('enc:v1:k1:AAAA:BBBB:CCCC'))).toBe('SECRET_MALFORMED');
  });

  it('refuses to start without a valid key configuration', () => {
    expect(codeOf(() => createSecretBox(''))).toBe('SECRETS_CONFIG_INVALID');
  });
});
