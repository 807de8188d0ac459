import { newId } from '@relay/contracts';
import type { AuditRecord, Store } from '@relay/store';

/*
 * The account's audit history: API keys created and revoked, plan changes — beside the
 * endpoint actions (adapters/endpoint-store.ts `recordAudit`) in the same collection, so
 * `GET /v1/audit` lists all of them newest first.
 */

export type AccountAuditAction = 'key_created' | 'key_revoked' | 'plan_changed';

export async function recordAccountAudit(
  store: Store,
  row: { account_id: string; action: AccountAuditAction; actor: string; key_id?: string; details: Record<string, unknown> },
): Promise<void> {
  await store.audit.create({ _id: newId('aud'), ...row, at: new Date() });
}

/** Every audit row of the account, newest first; `before` pages on `at`. */
export async function listAccountAudit(store: Store, accountId: string, limit: number, before: Date | null): Promise<AuditRecord[]> {
  const filter = before ? { account_id: accountId, at: { $lt: before } } : { account_id: accountId };
  const docs = await store.audit.find(filter).sort({ at: -1, _id: -1 }).limit(limit).lean();
  return docs.map(({ _id, ...rest }) => ({ ...rest, id: _id }) as AuditRecord);
}
