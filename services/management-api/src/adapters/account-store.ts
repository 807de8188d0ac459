import { findAccount } from '@relay/store';
import type { AccountRecord, Store } from '@relay/store';

export async function loadAccount(store: Store, accountId: string): Promise<AccountRecord | null> {
  return findAccount(store, accountId);
}
