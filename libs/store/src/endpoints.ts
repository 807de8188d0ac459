import { toEndpoint } from './mappers';
import type { EndpointRecord, PlanLimits, TargetRecord } from './records';
import type { Store } from './store';

/*
 * Endpoint reads in the domain's words, for the gateway's endpoint cache (issue 26, item 3: code
 * outside libs/store does not query the store's models). Each is one store command by id or by
 * the endpoint index; the cache runs the endpoint's and its targets' reads side by side, so a
 * load stays one round trip.
 */

/** What the gateway needs of an enabled target to route an event: no config, no secrets. */
export type TargetRoute = Pick<TargetRecord, 'id' | 'endpoint_id' | 'kind' | 'routing' | 'updated_at'>;

/** An account's plan as stored: absent or partial on an account created before plans (callers default it). */
export type StoredPlan = Partial<Pick<PlanLimits, 'monthly_accepted_events' | 'payload_limit_bytes'>> | null;

/** The endpoint with this id, or null. */
export async function findEndpoint(store: Store, endpointId: string): Promise<EndpointRecord | null> {
  const doc = await store.endpoints.findById(endpointId).lean().exec();
  return doc ? toEndpoint(doc) : null;
}

/** The endpoints among these ids (one command; a missing id is simply absent). */
export async function findEndpoints(store: Store, endpointIds: readonly string[]): Promise<EndpointRecord[]> {
  const docs = await store.endpoints.find({ _id: { $in: endpointIds } }).lean().exec();
  return docs.map((d) => toEndpoint(d));
}

/** The enabled targets of one endpoint or of several, with only what routing needs (one command). */
export async function enabledTargetRoutes(store: Store, endpointIds: string | readonly string[]): Promise<TargetRoute[]> {
  const endpoint_id = typeof endpointIds === 'string' ? endpointIds : { $in: endpointIds };
  const docs = await store.targets
    .find({ endpoint_id, enabled: true })
    .select({ _id: 1, endpoint_id: 1, kind: 1, routing: 1, updated_at: 1 })
    .lean<{ _id: string; endpoint_id: string; kind: string; routing?: TargetRoute['routing']; updated_at: Date }[]>()
    .exec();
  return docs.map((d) => ({ id: d._id, endpoint_id: d.endpoint_id, kind: d.kind, routing: d.routing ?? null, updated_at: d.updated_at }));
}

/** The account's stored plan; null when the account or its plan is missing. */
export async function accountPlan(store: Store, accountId: string): Promise<StoredPlan> {
  const doc = await store.accounts.findById(accountId).select({ plan: 1 }).lean<{ plan?: StoredPlan }>().exec();
  return doc?.plan ?? null;
}

/** The stored plans of these accounts by account id (one command); a missing account is absent. */
export async function accountPlans(store: Store, accountIds: readonly string[]): Promise<Map<string, StoredPlan>> {
  const docs = await store.accounts.find({ _id: { $in: accountIds } }).select({ _id: 1, plan: 1 }).lean<{ _id: string; plan?: StoredPlan }[]>().exec();
  return new Map(docs.map((d) => [d._id, d.plan ?? null]));
}
