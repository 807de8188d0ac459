import { createPrivateKey } from 'node:crypto';

/** What Relay keeps of a Google service-account key file (the JSON a console download gives). */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
}

/** A service account's address: `name@project.iam.gserviceaccount.com` (or a Workspace domain's). */
const CLIENT_EMAIL = /^[a-z0-9][a-z0-9.-]{0,99}@[a-z0-9.-]{1,200}$/i;
/** Key files are about 2.3 KB; anything past this is not one. */
export const MAX_KEY_FILE_BYTES = 16_384;

/**
 * Reads a service-account key (the file's JSON text, or the parsed object); a problem is a
 * message naming what is wrong, never quoting the key. Only `client_email`, `private_key` and
 * `private_key_id` are kept: the file's `token_uri` is ignored, because tokens are only ever
 * asked of Google's own endpoint (a key whose token_uri named an internal address would
 * otherwise make Relay send a signed request there).
 */
export function readServiceAccountKey(
  input: unknown,
): { ok: true; key: ServiceAccountKey } | { ok: false; message: string } {
  let value = input;
  if (typeof input === 'string') {
    if (Buffer.byteLength(input) > MAX_KEY_FILE_BYTES)
      return { ok: false, message: `a service account key file is at most ${MAX_KEY_FILE_BYTES} bytes` };
    try {
      value = JSON.parse(input) as unknown;
    } catch {
      return { ok: false, message: 'must be the JSON key file of a Google service account' };
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, message: 'must be the JSON key file of a Google service account' };
  const v = value as Record<string, unknown>;
  if (v.type !== undefined && v.type !== 'service_account')
    return { ok: false, message: 'must be a key of type service_account' };
  if (typeof v.client_email !== 'string' || !CLIENT_EMAIL.test(v.client_email))
    return { ok: false, message: 'client_email is missing or not a service account address' };
  if (typeof v.private_key !== 'string') return { ok: false, message: 'private_key is missing' };
  try {
    const key = createPrivateKey(v.private_key);
    if (key.asymmetricKeyType !== 'rsa')
      return { ok: false, message: 'private_key must be an RSA key (Google signs service-account tokens with RS256)' };
  } catch {
    return { ok: false, message: 'private_key is not a PEM private key' };
  }
  const key: ServiceAccountKey = { client_email: v.client_email, private_key: v.private_key };
  if (typeof v.private_key_id === 'string' && /^[A-Za-z0-9]{1,100}$/.test(v.private_key_id))
    key.private_key_id = v.private_key_id;
  return { ok: true, key };
}
