import type { AuditRecord } from './records';
import { modelsOf } from './store';
import type { Store } from './store';

/* The audit history as stored: appended in batches, read newest first by the account's index. */

/** Appends the rows (one command). */
export async function appendAudit(store: Store, rows: readonly AuditRecord[]): Promise<void> {
  if (rows.length === 0) return;
  await modelsOf(store).audit.insertMany(rows.map(({ id, ...rest }) => ({ ...rest, _id: id })));
}

/** Up to `limit` of the account's rows (or one endpoint's), newest first, older than `before` when given. */
export async function auditRows(
  store: Store,
  accountId: string,
  limit: number,
  before: Date | null,
  endpointId?: string,
): Promise<AuditRecord[]> {
  const filter: Record<string, unknown> = { account_id: accountId };
  if (endpointId !== undefined) filter.endpoint_id = endpointId;
  if (before) filter.at = { $lt: before };
  const docs = await modelsOf(store).audit.find(filter).sort({ at: -1, _id: -1 }).limit(limit).lean();
  return docs.map(({ _id, ...rest }) => ({ ...rest, id: _id }) as AuditRecord);
}
