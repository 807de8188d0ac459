import { newId } from '@relay/contracts';
import { toTarget } from '@relay/store';
import type { Store, TargetRecord } from '@relay/store';
import type { NewTarget, TargetChanges } from '../domain/target-input';

/*
 * Target reads and writes of the management API. Every read names the endpoint too, so a
 * target id from another endpoint (or account, checked on the endpoint) is not found.
 */

export async function listTargets(store: Store, endpointId: string): Promise<TargetRecord[]> {
  const docs = await store.targets.find({ endpoint_id: endpointId }).sort({ created_at: 1 }).lean();
  return docs.map((d) => toTarget(d));
}

/**
 * The names of the endpoint's targets among `targetIds` (the activity detail names a row's
 * targets): one read by id, as many documents as the row has targets, two fields each.
 */
export async function targetNames(store: Store, endpointId: string, targetIds: string[]): Promise<Map<string, string>> {
  if (targetIds.length === 0) return new Map();
  const docs = await store.targets.find({ _id: { $in: targetIds }, endpoint_id: endpointId }, { _id: 1, name: 1 }).lean();
  return new Map(docs.map((d) => [String(d._id), String(d.name)]));
}

export async function loadTarget(store: Store, endpointId: string, targetId: string): Promise<TargetRecord | null> {
  const doc = await store.targets.findOne({ _id: targetId, endpoint_id: endpointId }).lean();
  return doc ? toTarget(doc) : null;
}

export async function createTarget(store: Store, accountId: string, endpointId: string, target: NewTarget): Promise<TargetRecord> {
  const now = new Date();
  const doc = await store.targets.create({ _id: newId('tg'), account_id: accountId, endpoint_id: endpointId, ...target, created_at: now, updated_at: now });
  return toTarget(doc.toObject());
}

/** Applies `changes`; null when the target is gone. */
export function updateTarget(store: Store, endpointId: string, targetId: string, changes: TargetChanges): Promise<TargetRecord | null> {
  return setFields(store, endpointId, targetId, changes);
}

/** Clears the flag the deliverers set (docs/delivery.md "Flagged targets"); null when the target is gone. */
export function clearTargetFlag(store: Store, endpointId: string, targetId: string): Promise<TargetRecord | null> {
  return setFields(store, endpointId, targetId, { flagged: null });
}

async function setFields(store: Store, endpointId: string, targetId: string, fields: Record<string, unknown>): Promise<TargetRecord | null> {
  const doc = await store.targets.findOneAndUpdate({ _id: targetId, endpoint_id: endpointId }, { $set: { ...fields, updated_at: new Date() } }, { new: true }).lean();
  return doc ? toTarget(doc) : null;
}

/** False when there was no such target. */
export async function deleteTarget(store: Store, endpointId: string, targetId: string): Promise<boolean> {
  const result = await store.targets.deleteOne({ _id: targetId, endpoint_id: endpointId });
  return result.deletedCount > 0;
}
