import type { Store } from '@relay/store';

/** Whether a target is one of the account's (any endpoint): one read by `_id`. */
export async function targetOfAccount(store: Store, accountId: string, targetId: string): Promise<boolean> {
  const t = await store.targets.findOne({ _id: targetId }, { account_id: 1 }).lean();
  return t !== null && t.account_id === accountId;
}
