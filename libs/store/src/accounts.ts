import { toAccount } from './mappers';
import type { AccountRecord, PlanLimits } from './records';
import { modelsOf } from './store';
import type { Store } from './store';

/* Account reads and writes in the domain's words: each is one command by `_id`. */

/** The account with this id, or null. */
export async function findAccount(store: Store, accountId: string): Promise<AccountRecord | null> {
  const doc = await modelsOf(store).accounts.findById(accountId).lean();
  return doc ? toAccount(doc) : null;
}

/** Whether there is an account with this id. */
export async function accountExists(store: Store, accountId: string): Promise<boolean> {
  return (await modelsOf(store).accounts.exists({ _id: accountId })) !== null;
}

/** Stores a new account. */
export async function insertAccount(
  store: Store,
  account: Omit<AccountRecord, 'created_at'> & Partial<Pick<AccountRecord, 'created_at'>>,
): Promise<AccountRecord> {
  const { id, ...rest } = account;
  const doc = await modelsOf(store).accounts.create({ created_at: new Date(), ...rest, _id: id });
  return toAccount(doc.toObject());
}

/** Sets the given plan limits and returns the plan as it was before; null when the account does not exist. */
export async function setPlanLimits(
  store: Store,
  accountId: string,
  changes: Partial<PlanLimits>,
): Promise<PlanLimits | null> {
  const set = Object.fromEntries(Object.entries(changes).map(([k, v]) => [`plan.${k}`, v]));
  const doc = await modelsOf(store).accounts.findOneAndUpdate({ _id: accountId }, { $set: set }, { new: false }).lean();
  return doc ? doc.plan : null;
}
