import { newId } from '@relay/contracts';
import { findAccount, insertAccount } from '@relay/store';
import type { AccountRecord, PlanLimits, Store } from '@relay/store';
import { issueApiKey } from './api-keys';

/** The plan a new account gets unless the operator says otherwise (docs/configuration.md). */
export const DEFAULT_PLAN: PlanLimits = {
  name: 'starter',
  monthly_accepted_events: 100000,
  payload_limit_bytes: 262144,
};

export async function loadAccount(store: Store, accountId: string): Promise<AccountRecord | null> {
  return findAccount(store, accountId);
}

/** A new account and its first owner key, whose secret is returned once (only its digest is stored). */
export async function openAccount(
  store: Store,
  name: string,
  plan: PlanLimits = DEFAULT_PLAN,
): Promise<{ account_id: string; api_key: string }> {
  const accountId = newId('acc');
  await insertAccount(store, { id: accountId, name, plan });
  return { account_id: accountId, api_key: await issueApiKey(store, accountId) };
}
