import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';

/** An RSA-2048 key pair as PEM: the private key PKCS#1, the public key SPKI. */
export interface RsaKeyPair {
  privateKey: string;
  publicKey: string;
}

/**
 * The most keys one test file draws. Within a file every key is new: a test that expects a
 * certificate of another CA to be refused must never meet the first CA's key again.
 */
const POOL = 96;
const DIR = path.join(os.tmpdir(), 'relay-test-rsa-keys');
let drawn = 0;

/**
 * An RSA key pair for a test certificate (CAs, receivers, HTTPS fakes), from a pool kept on
 * disk. Making one costs 50–150 ms of CPU and the suite's certificates need hundreds; unrelated
 * servers of different files may share a key, as no test compares them. Each file (its own module
 * registry) draws the pool in order from the first, so its keys are distinct.
 */
export function rsaKeyPair(): RsaKeyPair {
  if (drawn >= POOL) throw new Error(`a test file drew more than ${POOL} RSA keys: raise POOL in ${__filename}`);
  const file = path.join(DIR, `rsa-${drawn++}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as RsaKeyPair;
  } catch {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const pair = { privateKey, publicKey };
    // written whole, then renamed: a worker that reads it meanwhile finds no file, never half of one
    mkdirSync(DIR, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(pair), { mode: 0o600 });
    renameSync(tmp, file);
    return pair;
  }
}

type CertificateOptions = Omit<NonNullable<Parameters<typeof generate>[1]>, 'keySize'>;

/**
 * `selfsigned`'s certificate, on a key of the pool rather than one made for it. Its `keyPair`
 * option (read by selfsigned 2.x) is missing from its types.
 */
export function selfSigned(
  attrs: Parameters<typeof generate>[0],
  opts: CertificateOptions,
): { private: string; public: string; cert: string; fingerprint: string } {
  return generate(attrs, { ...opts, keyPair: rsaKeyPair() } as CertificateOptions);
}
