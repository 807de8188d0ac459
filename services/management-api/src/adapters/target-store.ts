import { newId } from '@relay/contracts';
import { toTarget } from '@relay/store';
import type { Store, TargetRecord } from '@relay/store';
import type { NewTarget, TargetChanges } from '../domain/target-input';

/*
 * Target writes of the management API (its reads are in @relay/store: targetsOfEndpoint,
 * findEndpointTarget, targetNames). Every write names the endpoint too, so a target id from
 * another endpoint (or account, checked on the endpoint) is not found.
 */

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
