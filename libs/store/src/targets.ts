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
  const doc = await store.targets.findById(targetId).lean().exec();
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

/** Every target of the endpoint, oldest first (an endpoint's targets are few: docs/limits.md). */
export async function targetsOfEndpoint(store: Store, endpointId: string): Promise<TargetRecord[]> {
  const docs = await store.targets.find({ endpoint_id: endpointId }).sort({ created_at: 1 }).lean();
  return docs.map((d) => toTarget(d));
}

/**
 * The names of the endpoint's targets among `targetIds` (the activity detail names a row's
 * targets): one read by id, as many documents as the row has targets, two fields each.
 */
export async function targetNames(store: Store, endpointId: string, targetIds: readonly string[]): Promise<Map<string, string>> {
  if (targetIds.length === 0) return new Map();
  const docs = await store.targets.find({ _id: { $in: targetIds }, endpoint_id: endpointId }, { _id: 1, name: 1 }).lean();
  return new Map(docs.map((d) => [String(d._id), String(d.name)]));
}

/** The endpoint's target with this id, or null (a target of another endpoint is not found). */
export async function findEndpointTarget(store: Store, endpointId: string, targetId: string): Promise<TargetRecord | null> {
  const doc = await store.targets.findOne({ _id: targetId, endpoint_id: endpointId }).lean();
  return doc ? toTarget(doc) : null;
}

/** Whether a target is one of the account's (any endpoint): one read by `_id`. */
export async function isAccountTarget(store: Store, accountId: string, targetId: string): Promise<boolean> {
  const t = await store.targets.findOne({ _id: targetId }, { account_id: 1 }).lean();
  return t !== null && t.account_id === accountId;
}

/** The targets among these ids (one command by `_id`; a missing id is simply absent): a deliverer's cache revalidating what it holds. */
export async function findTargets(store: Store, targetIds: readonly string[]): Promise<TargetRecord[]> {
  const docs = await store.targets.find({ _id: { $in: targetIds } }).lean().exec();
  return docs.map((d) => toTarget(d));
}

/**
 * Flags the target (docs/delivery.md "Flagged targets") unless it is flagged already: another
 * instance's flag and its reason stand. True when this call set the flag. One update by `_id`.
 */
export async function flagTarget(store: Store, targetId: string, reason: string, at: Date): Promise<boolean> {
  const result = await store.targets.updateOne({ _id: targetId, flagged: null }, { $set: { flagged: { reason, at } } });
  return result.modifiedCount > 0;
}
