import { toEndpoint } from './mappers';
import type { EndpointRecord, PlanLimits, TargetRecord } from './records';
import { GET_MANY_AT_ONCE, mapLimit } from './keyed-collection';
import { modelsOf } from './store';
import type { Store } from './store';

/*
 * Endpoint reads in the domain's words, for the gateway's endpoint cache (code
 * outside libs/store does not query the store's models). Each is one store command by id or by
 * the endpoint index; the cache runs the endpoint's and its targets' reads side by side, so a
 * load stays one round trip.
 */

/** What the gateway needs of an enabled target to route an event: no config, no secrets. */
export type TargetRoute = Pick<TargetRecord, 'id' | 'endpoint_id' | 'kind' | 'routing' | 'ordering' | 'updated_at'> & {
  /** a mirror CLI session target's share of the events (its `config.mirror_percent`); absent on every other target */
  mirror_percent?: number;
};

/** An account's plan as stored: absent or partial on an account created before plans (callers default it). */
export type StoredPlan = Partial<Pick<PlanLimits, 'monthly_accepted_events' | 'payload_limit_bytes'>> | null;

/** The endpoint with this id, or null. */
export async function findEndpoint(store: Store, endpointId: string): Promise<EndpointRecord | null> {
  const doc = await modelsOf(store).endpoints.findById(endpointId).lean().exec();
  return doc ? toEndpoint(doc) : null;
}

/**
 * The endpoints among these ids (a missing id is simply absent): one read by `_id` each, several
 * in flight. Never `_id: {$in}`, which FerretDB 1.24 answers by reading the whole collection.
 */
export async function findEndpoints(store: Store, endpointIds: readonly string[]): Promise<EndpointRecord[]> {
  const found = await mapLimit([...new Set(endpointIds)], GET_MANY_AT_ONCE, (id) => findEndpoint(store, id));
  return found.filter((e): e is EndpointRecord => e !== null);
}

/**
 * The enabled targets of one endpoint or of several, with only what routing needs: one read by
 * the endpoint index per endpoint (several in flight), never `endpoint_id: {$in}`.
 */
export async function enabledTargetRoutes(
  store: Store,
  endpointIds: string | readonly string[],
): Promise<TargetRoute[]> {
  if (typeof endpointIds !== 'string')
    return (await mapLimit([...new Set(endpointIds)], GET_MANY_AT_ONCE, (id) => enabledTargetRoutes(store, id))).flat();
  const docs = await modelsOf(store)
    .targets.find({ endpoint_id: endpointIds, enabled: true })
    // the config's one field the gateway needs, never the rest (it holds sealed credentials)
    .select({ _id: 1, endpoint_id: 1, kind: 1, routing: 1, ordering: 1, updated_at: 1, 'config.mirror_percent': 1 })
    .lean<
      {
        _id: string;
        endpoint_id: string;
        kind: string;
        routing?: TargetRoute['routing'];
        ordering?: TargetRoute['ordering'];
        updated_at: Date;
        config?: { mirror_percent?: unknown };
      }[]
    >()
    .exec();
  return docs.map((d) => ({
    id: d._id,
    endpoint_id: d.endpoint_id,
    kind: d.kind,
    routing: d.routing ?? null,
    ordering: d.ordering ?? null,
    updated_at: d.updated_at,
    ...(typeof d.config?.mirror_percent === 'number' ? { mirror_percent: d.config.mirror_percent } : {}),
  }));
}

/** The account's stored plan; null when the account or its plan is missing. */
export async function accountPlan(store: Store, accountId: string): Promise<StoredPlan> {
  const doc = await modelsOf(store)
    .accounts.findById(accountId)
    .select({ plan: 1 })
    .lean<{ plan?: StoredPlan }>()
    .exec();
  return doc?.plan ?? null;
}

/** The stored plans of these accounts by account id (one read by `_id` each, several in flight); a missing account is absent. */
export async function accountPlans(store: Store, accountIds: readonly string[]): Promise<Map<string, StoredPlan>> {
  const ids = [...new Set(accountIds)];
  const docs = await mapLimit(ids, GET_MANY_AT_ONCE, (id) =>
    modelsOf(store).accounts.findById(id).select({ _id: 1, plan: 1 }).lean<{ _id: string; plan?: StoredPlan }>().exec(),
  );
  return new Map(docs.flatMap((d) => (d ? [[d._id, d.plan ?? null] as const] : [])));
}

/*
 * The management API's endpoint reads and writes: each names the account, so another account's
 * endpoint is not found. Every change bumps `revision` in the same update (the gateway keys its
 * compiled rules by it) after claiming that revision (`store.claimRevision`, an exclusive insert),
 * so concurrent saves — in one process or several — cannot interleave.
 */

/** The account's endpoint with this id, or null. */
export async function findAccountEndpoint(
  store: Store,
  accountId: string,
  endpointId: string,
): Promise<EndpointRecord | null> {
  const doc = await modelsOf(store).endpoints.findOne({ _id: endpointId, account_id: accountId }).lean();
  return doc ? toEndpoint(doc) : null;
}

/** Whether the account has this endpoint. */
export async function isAccountEndpoint(store: Store, accountId: string, endpointId: string): Promise<boolean> {
  return (await modelsOf(store).endpoints.exists({ _id: endpointId, account_id: accountId })) !== null;
}

/** The payload format of the account's endpoint; null when there is no such endpoint. */
export async function endpointPayloadFormat(
  store: Store,
  accountId: string,
  endpointId: string,
): Promise<EndpointRecord['payload_format'] | null> {
  const doc = await modelsOf(store)
    .endpoints.findOne({ _id: endpointId, account_id: accountId }, { payload_format: 1 })
    .lean<{ payload_format: EndpointRecord['payload_format'] }>();
  return doc ? doc.payload_format : null;
}

/** The account's endpoints, oldest first (an account's endpoints are bounded by its plan: docs/limits.md). */
export async function endpointsOfAccount(store: Store, accountId: string): Promise<EndpointRecord[]> {
  const docs = await modelsOf(store).endpoints.find({ account_id: accountId }).sort({ created_at: 1, _id: 1 }).lean();
  return docs.map((d) => toEndpoint(d));
}

/** What a new endpoint is made of: everything but its id, owner, revision and times (the schema's defaults fill what is left out). */
type NewEndpointRecord = Partial<Omit<EndpointRecord, 'id' | 'account_id' | 'revision' | 'created_at' | 'updated_at'>> &
  Pick<EndpointRecord, 'name'>;

/** Stores a new endpoint at revision 1. */
export async function insertEndpoint(
  store: Store,
  endpointId: string,
  accountId: string,
  fields: NewEndpointRecord,
): Promise<EndpointRecord> {
  const now = new Date();
  const doc = await modelsOf(store).endpoints.create({
    _id: endpointId,
    account_id: accountId,
    ...fields,
    revision: 1,
    created_at: now,
    updated_at: now,
  });
  return toEndpoint(doc.toObject());
}

/** Applies `changes` if the endpoint is still at `revision` (absent: stored before revisions); false when another save came first. */
export async function updateEndpointAt(
  store: Store,
  endpointId: string,
  revision: number | undefined,
  changes: Partial<NewEndpointRecord>,
): Promise<boolean> {
  if (!(await store.claimRevision(endpointId, (revision ?? 0) + 1))) return false;
  const at = revision === undefined ? { revision: { $exists: false } } : { revision };
  const result = await modelsOf(store).endpoints.updateOne(
    { _id: endpointId, ...at },
    { $set: { ...changes, updated_at: new Date() }, $inc: { revision: 1 } },
  );
  return result.matchedCount === 1;
}

/** Sets a manual control (enabled / paused) of the account's endpoint; true when the value changed. */
export async function setEndpointControl(
  store: Store,
  accountId: string,
  endpointId: string,
  field: 'enabled' | 'paused',
  value: boolean,
): Promise<boolean> {
  const endpoints = modelsOf(store).endpoints;
  const current = await endpoints
    .findOne({ _id: endpointId, account_id: accountId })
    .select({ [field]: 1, revision: 1 })
    .lean();
  if (!current || current[field] === value) return false;
  if (!(await store.claimRevision(endpointId, (current.revision ?? 0) + 1))) return false;
  const result = await endpoints.updateOne(
    { _id: endpointId, account_id: accountId, [field]: { $ne: value } },
    { $set: { [field]: value, updated_at: new Date() }, $inc: { revision: 1 } },
  );
  return result.modifiedCount === 1;
}

/** Deletes the endpoint and its targets (targets first: a target never outlives its endpoint). */
export async function deleteEndpointAndTargets(store: Store, endpointId: string): Promise<void> {
  const { endpoints, targets } = modelsOf(store);
  await targets.deleteMany({ endpoint_id: endpointId });
  await endpoints.deleteOne({ _id: endpointId });
}
