import type { ApiKeyDoc, Store } from './store';
import { modelsOf } from './store';

/*
 * Management API keys as stored (only a key's digest, never the key): the management API's
 * adapter makes and checks keys; these are its reads and writes, each one command by `_id`, by
 * the digest's unique index or by the account's index (an account's keys are few).
 */

/** Stores a new key. */
export async function insertApiKey(store: Store, key: ApiKeyDoc): Promise<ApiKeyDoc> {
  return (await modelsOf(store).apiKeys.create(key)).toObject();
}

/** The key with this digest, or null. */
export async function apiKeyByDigest(store: Store, digest: string): Promise<ApiKeyDoc | null> {
  return modelsOf(store).apiKeys.findOne({ digest }).lean();
}

/** The account's keys, oldest first. */
export async function apiKeysOfAccount(store: Store, accountId: string): Promise<ApiKeyDoc[]> {
  return modelsOf(store).apiKeys.find({ account_id: accountId }).sort({ created_at: 1, _id: 1 }).lean();
}

/** The account's key with this id, or null (another account's key is not found). */
export async function findAccountApiKey(store: Store, accountId: string, keyId: string): Promise<ApiKeyDoc | null> {
  return modelsOf(store).apiKeys.findOne({ _id: keyId, account_id: accountId }).lean();
}

/** Deletes the account's key; false when there was none. */
export async function deleteAccountApiKey(store: Store, accountId: string, keyId: string): Promise<boolean> {
  const result = await modelsOf(store).apiKeys.deleteOne({ _id: keyId, account_id: accountId });
  return result.deletedCount > 0;
}

/** The stored role of each of the account's keys (absent: a key from before roles). */
export async function apiKeyRolesOf(store: Store, accountId: string): Promise<(ApiKeyDoc['role'] | undefined)[]> {
  const docs = await modelsOf(store).apiKeys.find({ account_id: accountId }).select({ role: 1 }).lean();
  return docs.map((d) => d.role);
}

/** Records the key's last use at `at` unless one at or after `staleBefore` is stored (two writers: the later check wins nothing). */
export async function touchApiKey(store: Store, keyId: string, at: Date, staleBefore: Date): Promise<void> {
  const stale = {
    $or: [{ last_used_at: null }, { last_used_at: { $exists: false } }, { last_used_at: { $lt: staleBefore } }],
  };
  await modelsOf(store)
    .apiKeys.updateOne({ _id: keyId, ...stale }, { $set: { last_used_at: at } })
    .exec();
}
