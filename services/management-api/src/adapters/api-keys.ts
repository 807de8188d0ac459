import { createHash, randomBytes } from 'node:crypto';
import { newId } from '@relay/contracts';
import type { Store } from '@relay/store';

export function digestOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Creates a key, stores only its digest, and returns the key — shown once, never again. */
export async function issueApiKey(store: Store, accountId: string): Promise<string> {
  const key = `rk_${randomBytes(24).toString('base64url')}`;
  await store.apiKeys.create({ _id: newId('key'), account_id: accountId, digest: digestOf(key), prefix: key.slice(0, 7), created_at: new Date() });
  return key;
}

/** The caller behind a key: its account, and the key's prefix (the audit history's actor). */
export interface KeyOwner {
  accountId: string;
  keyPrefix: string;
}

export async function accountForKey(store: Store, key: string): Promise<KeyOwner | null> {
  const doc = await store.apiKeys.findOne({ digest: digestOf(key) }).lean();
  return doc ? { accountId: doc.account_id, keyPrefix: doc.prefix } : null;
}
