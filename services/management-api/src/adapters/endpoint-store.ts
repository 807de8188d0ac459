import { newId } from '@relay/contracts';
import type { PayloadFormat } from '@relay/endpoints';
import { toEndpoint } from '@relay/store';
import type { EndpointRecord, Store } from '@relay/store';
import type { ManualState } from '../domain/audit';
import type { EndpointSettings } from '../domain/endpoint-settings';

/**
 * Endpoint writes. Every change bumps `revision` in the same update (the gateway keys its
 * compiled rules by it) after claiming that revision (`store.claimRevision`, an exclusive
 * insert), so concurrent saves — in one process or several — cannot interleave: a settings
 * save applies only to the revision it was validated against, and an action only when the
 * control still has the other value (two concurrent pauses record one audit row).
 */
export async function loadEndpoint(store: Store, accountId: string, endpointId: string): Promise<EndpointRecord | null> {
  const doc = await store.endpoints.findOne({ _id: endpointId, account_id: accountId }).lean();
  return doc ? toEndpoint(doc) : null;
}

/** Whether the account has this endpoint (another account's endpoint does not exist for it). */
export async function endpointExists(store: Store, accountId: string, endpointId: string): Promise<boolean> {
  return (await store.endpoints.exists({ _id: endpointId, account_id: accountId })) !== null;
}

/** The payload format of the caller's endpoint (what a target's routing rules can read); null when there is no such endpoint. */
export async function endpointFormat(store: Store, accountId: string, endpointId: string): Promise<PayloadFormat | null> {
  const doc = await store.endpoints.findOne({ _id: endpointId, account_id: accountId }, { payload_format: 1 }).lean<{ payload_format: PayloadFormat }>();
  return doc ? doc.payload_format : null;
}

export async function listEndpoints(store: Store, accountId: string): Promise<EndpointRecord[]> {
  const docs = await store.endpoints.find({ account_id: accountId }).sort({ created_at: 1, _id: 1 }).lean();
  return docs.map((d) => toEndpoint(d));
}

export async function createEndpoint(store: Store, accountId: string, settings: EndpointSettings): Promise<EndpointRecord> {
  const now = new Date();
  const doc = await store.endpoints.create({ _id: newId('ep'), account_id: accountId, ...settings, revision: 1, created_at: now, updated_at: now });
  return toEndpoint(doc.toObject());
}

/** Applies `changes` if the endpoint is still at `revision`; false when another save came first. */
export async function updateEndpoint(store: Store, endpointId: string, revision: number | undefined, changes: Partial<EndpointSettings>): Promise<boolean> {
  if (!(await store.claimRevision(endpointId, (revision ?? 0) + 1))) return false;
  const at = revision === undefined ? { revision: { $exists: false } } : { revision };
  const result = await store.endpoints.updateOne({ _id: endpointId, ...at }, { $set: { ...changes, updated_at: new Date() }, $inc: { revision: 1 } });
  return result.matchedCount === 1;
}

/** Sets a manual control (enabled / paused); true when the value changed. */
export async function setControl(store: Store, accountId: string, endpointId: string, field: keyof ManualState, value: boolean): Promise<boolean> {
  const current = await store.endpoints.findOne({ _id: endpointId, account_id: accountId }).select({ [field]: 1, revision: 1 }).lean();
  if (!current || current[field] === value) return false;
  if (!(await store.claimRevision(endpointId, (current.revision ?? 0) + 1))) return false;
  const result = await store.endpoints.updateOne(
    { _id: endpointId, account_id: accountId, [field]: { $ne: value } },
    { $set: { [field]: value, updated_at: new Date() }, $inc: { revision: 1 } },
  );
  return result.modifiedCount === 1;
}

export async function deleteEndpoint(store: Store, endpointId: string): Promise<void> {
  await store.targets.deleteMany({ endpoint_id: endpointId });
  await store.endpoints.deleteOne({ _id: endpointId });
}

