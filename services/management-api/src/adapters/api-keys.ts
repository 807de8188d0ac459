import { createHash, randomBytes } from 'node:crypto';
import { newId } from '@relay/contracts';
import {
  apiKeyByDigest,
  apiKeyRolesOf,
  apiKeysOfAccount,
  deleteAccountApiKey,
  findAccountApiKey,
  insertApiKey,
  touchApiKey,
} from '@relay/store';
import type { ApiKeyDoc, Store } from '@relay/store';
import { roleOfStored } from '../domain/roles';
import type { ApiKeyRole } from '../domain/roles';

/*
 * Management API keys. Only a key's SHA-256 digest is stored: the key itself is returned once,
 * by the call that creates it, and never logged. Every request reads its key from the store
 * (no cache), so a revoked key is refused at once by every management-api process.
 */

export function digestOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A key as the API lists it: everything but the secret and its digest. */
export interface ApiKeyInfo {
  id: string;
  account_id: string;
  /** the first 7 characters (`rk_AbCd`), shown to tell keys apart; the audit history's actor */
  prefix: string;
  role: ApiKeyRole;
  name: string | null;
  created_by: string | null;
  created_at: Date;
  last_used_at: Date | null;
}

const infoOf = (d: ApiKeyDoc): ApiKeyInfo => ({
  id: d._id,
  account_id: d.account_id,
  prefix: d.prefix,
  role: roleOfStored(d.role),
  name: d.name ?? null,
  created_by: d.created_by ?? null,
  created_at: d.created_at,
  last_used_at: d.last_used_at ?? null,
});

export interface NewApiKey {
  role: ApiKeyRole;
  name?: string | null;
  /** the prefix of the key that made it; null for the bootstrap command */
  createdBy?: string | null;
}

/** Creates a key and returns it with its secret — the only time the secret exists outside the caller's hands. */
export async function createApiKey(
  store: Store,
  accountId: string,
  opts: NewApiKey,
): Promise<{ secret: string; key: ApiKeyInfo }> {
  const secret = `rk_${randomBytes(24).toString('base64url')}`;
  const doc = await insertApiKey(store, {
    _id: newId('key'),
    account_id: accountId,
    digest: digestOf(secret),
    prefix: secret.slice(0, 7),
    role: opts.role,
    name: opts.name ?? null,
    created_by: opts.createdBy ?? null,
    created_at: new Date(),
    last_used_at: null,
  });
  return { secret, key: infoOf(doc) };
}

/** An owner key for a new account (the bootstrap command): shown once, never again. */
export async function issueApiKey(store: Store, accountId: string, role: ApiKeyRole = 'owner'): Promise<string> {
  return (await createApiKey(store, accountId, { role })).secret;
}

/** The key behind a secret a caller presented, or null. */
export async function keyForSecret(store: Store, secret: string): Promise<ApiKeyInfo | null> {
  const doc = await apiKeyByDigest(store, digestOf(secret));
  return doc ? infoOf(doc) : null;
}

/** The account's keys, oldest first. */
export async function listApiKeys(store: Store, accountId: string): Promise<ApiKeyInfo[]> {
  return (await apiKeysOfAccount(store, accountId)).map(infoOf);
}

/** One key of the account; another account's key is not found. */
export async function loadApiKey(store: Store, accountId: string, keyId: string): Promise<ApiKeyInfo | null> {
  const doc = await findAccountApiKey(store, accountId, keyId);
  return doc ? infoOf(doc) : null;
}

/** Deletes the key: its secret stops working with the next request anywhere. False when it was not there. */
export async function deleteApiKey(store: Store, accountId: string, keyId: string): Promise<boolean> {
  return deleteAccountApiKey(store, accountId, keyId);
}

/** Keys that act as owner: role `owner`, or no role (stored before roles existed). */
export async function ownerKeyCount(store: Store, accountId: string): Promise<number> {
  return (await apiKeyRolesOf(store, accountId)).filter((role) => roleOfStored(role) === 'owner').length;
}

/**
 * Records that a key was used, at most once per `intervalMs` per key: the time read with the
 * key decides, so a key used many times a second costs one write a minute, whichever process
 * serves it (two processes can each write once in the same minute). Never awaited by a request;
 * a failed write is only a stale "last used".
 */
export function createLastUsedRecorder(
  store: Store,
  opts: { intervalMs?: number; now?: () => Date; onError?: (err: Error) => void } = {},
) {
  const intervalMs = opts.intervalMs ?? 60_000;
  const now = opts.now ?? (() => new Date());
  const writing = new Set<string>();
  return (key: ApiKeyInfo): void => {
    const at = now();
    if (key.last_used_at && at.getTime() - new Date(key.last_used_at).getTime() < intervalMs) return;
    if (writing.has(key.id)) return;
    writing.add(key.id);
    void touchApiKey(store, key.id, at, new Date(at.getTime() - intervalMs))
      .catch((err: Error) => opts.onError?.(err))
      .finally(() => writing.delete(key.id));
  };
}
