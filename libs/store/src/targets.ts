import { toTarget } from './mappers';
import type { TargetRecord } from './records';
import type { Store } from './store';

/*
 * Target reads in the domain's words, for code that must not query the store's models itself
 * (the management API's routes and jobs). Each is one read by id or by the (endpoint_id,
 * account_id) index, bounded by the endpoint's targets.
 */

/** The target with this id, whatever its endpoint and account (callers check both), or null. */
export async function findTarget(store: Store, targetId: string): Promise<TargetRecord | null> {
  const doc = await store.targets.findById(targetId).lean();
  return doc ? toTarget(doc) : null;
}

/** The enabled targets of the account's endpoint, id and kind only: where a resend goes when no target is named. */
export async function enabledTargetsOf(store: Store, accountId: string, endpointId: string): Promise<{ id: string; kind: string }[]> {
  const docs = await store.targets.find({ endpoint_id: endpointId, account_id: accountId, enabled: true }).select({ _id: 1, kind: 1 }).lean();
  return docs.map((d) => ({ id: String(d._id), kind: String(d.kind) }));
}

/** Up to `limit` ids of the endpoint's targets that have routing rules (docs/routing.md): what a payload-format change must not strand. */
export async function routedTargetIds(store: Store, endpointId: string, limit: number): Promise<string[]> {
  const docs = await store.targets.find({ endpoint_id: endpointId, routing: { $ne: null } }, { _id: 1 }).limit(limit).lean();
  return docs.map((d) => String(d._id));
}
