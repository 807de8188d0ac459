import { toAccount } from '@relay/store';
import type { AccountRecord, Store } from '@relay/store';

export async function loadAccount(store: Store, accountId: string): Promise<AccountRecord | null> {
  const doc = await store.accounts.findById(accountId).lean();
  return doc ? toAccount(doc) : null;
}
