import { toTarget } from './mappers';
import type { BreakerStateRecord, TargetRecord } from './records';
import { GET_MANY_AT_ONCE, mapLimit } from './keyed-collection';
import { modelsOf } from './store';
import type { Store } from './store';

/*
 * Target reads in the domain's words, for code that must not query the store's models itself
 * (the management API's routes and jobs). Each is one read by id or by the (endpoint_id,
 * account_id) index, bounded by the endpoint's targets.
 */

/** The target with this id, whatever its endpoint and account (callers check both), or null. */
export async function findTarget(store: Store, targetId: string): Promise<TargetRecord | null> {
  const doc = await modelsOf(store).targets.findById(targetId).lean().exec();
  return doc ? toTarget(doc) : null;
}

/** The enabled targets of the account's endpoint, id and kind only: where a resend goes when no target is named. */
export async function enabledTargetsOf(
  store: Store,
  accountId: string,
  endpointId: string,
): Promise<{ id: string; kind: string; mirror_percent?: number }[]> {
  const docs = await modelsOf(store)
    .targets.find({ endpoint_id: endpointId, account_id: accountId, enabled: true })
    .select({ _id: 1, kind: 1, 'config.mirror_percent': 1 })
    .lean<{ _id: string; kind: string; config?: { mirror_percent?: unknown } }[]>();
  return docs.map((d) => ({
    id: String(d._id),
    kind: String(d.kind),
    // a mirror CLI session target's share (docs/cli.md "Mirror"); the rest of the config is not read
    ...(typeof d.config?.mirror_percent === 'number' ? { mirror_percent: d.config.mirror_percent } : {}),
  }));
}

/** Up to `limit` ids of the endpoint's targets that have routing rules (docs/routing.md): what a payload-format change must not strand. */
export async function routedTargetIds(store: Store, endpointId: string, limit: number): Promise<string[]> {
  const docs = await modelsOf(store)
    .targets.find({ endpoint_id: endpointId, routing: { $ne: null } }, { _id: 1 })
    .limit(limit)
    .lean();
  return docs.map((d) => String(d._id));
}

/** Every target of the endpoint, oldest first (an endpoint's targets are few: docs/limits.md). */
export async function targetsOfEndpoint(store: Store, endpointId: string): Promise<TargetRecord[]> {
  const docs = await modelsOf(store).targets.find({ endpoint_id: endpointId }).sort({ created_at: 1 }).lean();
  return docs.map((d) => toTarget(d));
}

/**
 * The names of the endpoint's targets among `targetIds` (the activity detail names a row's
 * targets): one read by `_id` per target, several in flight, two fields each.
 */
export async function targetNames(
  store: Store,
  endpointId: string,
  targetIds: readonly string[],
): Promise<Map<string, string>> {
  const docs = await mapLimit([...new Set(targetIds)], GET_MANY_AT_ONCE, (id) =>
    modelsOf(store).targets.findOne({ _id: id, endpoint_id: endpointId }, { _id: 1, name: 1 }).lean(),
  );
  return new Map(docs.flatMap((d) => (d ? [[String(d._id), String(d.name)] as const] : [])));
}

/** The endpoint's target with this id, or null (a target of another endpoint is not found). */
export async function findEndpointTarget(
  store: Store,
  endpointId: string,
  targetId: string,
): Promise<TargetRecord | null> {
  const doc = await modelsOf(store).targets.findOne({ _id: targetId, endpoint_id: endpointId }).lean();
  return doc ? toTarget(doc) : null;
}

/** Whether a target is one of the account's (any endpoint): one read by `_id`. */
export async function isAccountTarget(store: Store, accountId: string, targetId: string): Promise<boolean> {
  const t = await modelsOf(store).targets.findOne({ _id: targetId }, { account_id: 1 }).lean();
  return t !== null && t.account_id === accountId;
}

/** The targets among these ids (one read by `_id` each, several in flight; a missing id is simply absent): a deliverer's cache revalidating what it holds. */
export async function findTargets(store: Store, targetIds: readonly string[]): Promise<TargetRecord[]> {
  const found = await mapLimit([...new Set(targetIds)], GET_MANY_AT_ONCE, (id) => findTarget(store, id));
  return found.filter((t): t is TargetRecord => t !== null);
}

/**
 * Flags the target (docs/delivery.md "Flagged targets") unless it is flagged already: another
 * instance's flag and its reason stand. True when this call set the flag. One update by `_id`.
 */
export async function flagTarget(store: Store, targetId: string, reason: string, at: Date): Promise<boolean> {
  const result = await modelsOf(store).targets.updateOne(
    { _id: targetId, flagged: null },
    { $set: { flagged: { reason, at } } },
  );
  return result.modifiedCount > 0;
}

/** What a new target is made of: everything but its id, owner, endpoint and times. */
export type NewTargetRecord = Omit<
  TargetRecord,
  'id' | 'account_id' | 'endpoint_id' | 'flagged' | 'created_at' | 'updated_at'
> &
  Partial<Pick<TargetRecord, 'flagged'>>;

/** Stores a new target of the account's endpoint. */
export async function insertTarget(
  store: Store,
  targetId: string,
  accountId: string,
  endpointId: string,
  target: NewTargetRecord,
): Promise<TargetRecord> {
  const now = new Date();
  const doc = await modelsOf(store).targets.create({
    _id: targetId,
    account_id: accountId,
    endpoint_id: endpointId,
    ...target,
    created_at: now,
    updated_at: now,
  });
  return toTarget(doc.toObject());
}

/** Sets `fields` of the endpoint's target and returns it as it is now; null when it is gone. One update by `_id`. */
export async function setTargetFields(
  store: Store,
  endpointId: string,
  targetId: string,
  fields: Partial<NewTargetRecord>,
): Promise<TargetRecord | null> {
  const doc = await modelsOf(store)
    .targets.findOneAndUpdate(
      { _id: targetId, endpoint_id: endpointId },
      { $set: { ...fields, updated_at: new Date() } },
      { new: true },
    )
    .lean();
  return doc ? toTarget(doc) : null;
}

/** Deletes the endpoint's target; false when there was none. */
export async function deleteEndpointTarget(store: Store, endpointId: string, targetId: string): Promise<boolean> {
  const result = await modelsOf(store).targets.deleteOne({ _id: targetId, endpoint_id: endpointId });
  return result.deletedCount > 0;
}

/**
 * Stores a breaker transition as the target's `breaker_state` unless a later one is stored
 * (`since` is Redis' clock, the same for every writer; `seq` orders transitions in the same
 * millisecond). A state with `since` 0 (its Redis hash expired while closed) always writes.
 * One update by `_id`.
 */
export async function storeBreakerState(store: Store, targetId: string, state: BreakerStateRecord): Promise<void> {
  const since = state.since;
  const filter =
    since.getTime() === 0
      ? { _id: targetId }
      : {
          _id: targetId,
          $or: [
            { breaker_state: null },
            { 'breaker_state.since': { $lt: since } },
            { 'breaker_state.since': since, 'breaker_state.seq': { $lt: state.seq } },
          ],
        };
  await modelsOf(store).targets.updateOne(filter, { $set: { breaker_state: state } });
}

/** One page of every target's kind and config, in `_id` order after `afterId` (null: from the start): a maintenance job's walk, bounded by `limit`. */
export async function targetConfigsPage(
  store: Store,
  afterId: string | null,
  limit: number,
): Promise<Pick<TargetRecord, 'id' | 'kind' | 'config'>[]> {
  const filter = afterId === null ? {} : { _id: { $gt: afterId } };
  const docs = await modelsOf(store)
    .targets.find(filter, { _id: 1, kind: 1, config: 1 })
    .sort({ _id: 1 })
    .limit(limit)
    .lean();
  return docs.map((d) => ({ id: d._id, kind: d.kind, config: d.config }));
}

/** Replaces the target's config if it is still `expected` (compare-and-set on the whole config); false when it changed meanwhile. */
export async function replaceTargetConfig(
  store: Store,
  targetId: string,
  expected: Record<string, unknown>,
  config: Record<string, unknown>,
): Promise<boolean> {
  const result = await modelsOf(store).targets.updateOne(
    { _id: targetId, config: expected },
    { $set: { config, updated_at: new Date() } },
  );
  return result.modifiedCount === 1;
}
