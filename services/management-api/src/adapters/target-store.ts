import { newId } from '@relay/contracts';
import { deleteEndpointTarget, insertTarget, setTargetFields } from '@relay/store';
import type { NewTargetRecord, Store, TargetRecord } from '@relay/store';
import type { NewTarget, TargetChanges } from '../domain/target-input';

/*
 * Target writes of the management API (its reads are in @relay/store: targetsOfEndpoint,
 * findEndpointTarget, targetNames). Every write names the endpoint too, so a target id from
 * another endpoint (or account, checked on the endpoint) is not found.
 */

export function createTarget(
  store: Store,
  accountId: string,
  endpointId: string,
  target: NewTarget,
): Promise<TargetRecord> {
  return insertTarget(store, newId('tg'), accountId, endpointId, target);
}

/** Applies `changes`; null when the target is gone. */
export function updateTarget(
  store: Store,
  endpointId: string,
  targetId: string,
  changes: TargetChanges,
): Promise<TargetRecord | null> {
  return setFields(store, endpointId, targetId, changes);
}

/** Clears the flag the deliverers set (docs/delivery.md "Flagged targets"); null when the target is gone. */
export function clearTargetFlag(store: Store, endpointId: string, targetId: string): Promise<TargetRecord | null> {
  return setFields(store, endpointId, targetId, { flagged: null });
}

function setFields(
  store: Store,
  endpointId: string,
  targetId: string,
  fields: Partial<NewTargetRecord>,
): Promise<TargetRecord | null> {
  return setTargetFields(store, endpointId, targetId, fields);
}

/** False when there was no such target. */
export function deleteTarget(store: Store, endpointId: string, targetId: string): Promise<boolean> {
  return deleteEndpointTarget(store, endpointId, targetId);
}
