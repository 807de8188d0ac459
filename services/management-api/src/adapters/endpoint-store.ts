import { newId } from '@relay/contracts';
import type { PayloadFormat } from '@relay/endpoints';
import {
  deleteEndpointAndTargets,
  endpointPayloadFormat,
  endpointsOfAccount,
  findAccountEndpoint,
  insertEndpoint,
  isAccountEndpoint,
  setEndpointControl,
  updateEndpointAt,
} from '@relay/store';
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
export async function loadEndpoint(
  store: Store,
  accountId: string,
  endpointId: string,
): Promise<EndpointRecord | null> {
  return findAccountEndpoint(store, accountId, endpointId);
}

/** Whether the account has this endpoint (another account's endpoint does not exist for it). */
export async function endpointExists(store: Store, accountId: string, endpointId: string): Promise<boolean> {
  return isAccountEndpoint(store, accountId, endpointId);
}

/** The payload format of the caller's endpoint (what a target's routing rules can read); null when there is no such endpoint. */
export async function endpointFormat(
  store: Store,
  accountId: string,
  endpointId: string,
): Promise<PayloadFormat | null> {
  return endpointPayloadFormat(store, accountId, endpointId);
}

export async function listEndpoints(store: Store, accountId: string): Promise<EndpointRecord[]> {
  return endpointsOfAccount(store, accountId);
}

export async function createEndpoint(
  store: Store,
  accountId: string,
  settings: EndpointSettings,
): Promise<EndpointRecord> {
  return insertEndpoint(store, newId('ep'), accountId, settings);
}

/** Applies `changes` if the endpoint is still at `revision`; false when another save came first. */
export async function updateEndpoint(
  store: Store,
  endpointId: string,
  revision: number | undefined,
  changes: Partial<EndpointSettings>,
): Promise<boolean> {
  return updateEndpointAt(store, endpointId, revision, changes);
}

/** Sets a manual control (enabled / paused); true when the value changed. */
export async function setControl(
  store: Store,
  accountId: string,
  endpointId: string,
  field: keyof ManualState,
  value: boolean,
): Promise<boolean> {
  return setEndpointControl(store, accountId, endpointId, field, value);
}

export async function deleteEndpoint(store: Store, endpointId: string): Promise<void> {
  await deleteEndpointAndTargets(store, endpointId);
}
