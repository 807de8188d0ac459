import { LRUCache } from '@relay/cache';
import type { CacheMetrics, StoreReadWhy } from '@relay/cache';
import type { Logger } from '@relay/logging';
import { compileRouting } from '@relay/endpoints';
import type { RoutePredicate, Routing } from '@relay/endpoints';
import { toEndpoint } from '@relay/store';
import type { EndpointRecord, Store } from '@relay/store';
import { channelOf } from '@relay/targets';
import { prepareSettings } from '../domain/endpoint-settings';
import type { EndpointSettings } from '../domain/endpoint-settings';
import type { EndpointView } from '../domain/endpoint-view';
import { RevisionCache } from '../domain/rules/revision-cache';

/** Plan values of an account whose plan is missing (defaults of the starter plan). */
const DEFAULT_PLAN = { payload_limit_bytes: 262144, monthly_accepted_events: 0 };

type Plan = EndpointView['plan'];
type TargetDoc = { _id: string; endpoint_id: string; kind: string; routing?: Routing | null; updated_at?: Date };
type AccountDoc = { _id: string; plan?: Partial<Plan> | null };

/** `revision` is bumped on every change; `updated_at` too guards against a writer that forgot to bump it. */
function revisionOf(endpoint: EndpointRecord): string {
  return `${endpoint.revision}:${new Date(endpoint.updated_at).getTime()}`;
}

function planOf(account: AccountDoc | null | undefined): Plan {
  return {
    payload_limit_bytes: account?.plan?.payload_limit_bytes ?? DEFAULT_PLAN.payload_limit_bytes,
    monthly_accepted_events: account?.plan?.monthly_accepted_events ?? DEFAULT_PLAN.monthly_accepted_events,
  };
}

export interface EndpointLoader {
  /** one endpoint with its enabled targets and plan; null when there is none */
  load(endpointId: string): Promise<EndpointView | null>;
  /** many endpoints in three store commands, for a revalidation pass; missing ids map to null */
  loadMany(endpointIds: string[], accountIds: string[]): Promise<Map<string, EndpointView | null>>;
  /** an account's plan, read now; its cached copy is dropped at once, so no load meanwhile uses it */
  reloadPlan(accountId: string): Promise<Plan>;
  /** drops an account's cached plan: the next load of one of its endpoints reads it */
  forgetPlan(accountId: string): void;
}

/**
 * Reads endpoints with their enabled targets and their account's plan from the store, and
 * prepares their settings. A load is one round trip: the endpoint and its targets are read
 * together (both by the endpoint's id); plans are few (one per account) and cached here, told
 * by the `account` announcements like everything else. Secrets are opened and rules compiled
 * once per endpoint revision (a reload with an unchanged revision reuses them), never per request.
 */
export function createEndpointLoader(store: Store, logger: Logger, openSecret: (sealed: string) => string, maxPrepared: number, metrics: CacheMetrics): EndpointLoader {
  const prepared = new RevisionCache<EndpointSettings | null>(maxPrepared);
  // a target's routing compiled once per target change (its updated_at), not per load: a
  // revalidation pass rereads every held endpoint's targets
  const routes = new RevisionCache<RoutePredicate | null | 'unusable'>(maxPrepared);
  const plans = new LRUCache<string, Plan>({ max: maxPrepared });

  const prepare = (endpoint: EndpointRecord): EndpointSettings | null => {
    try {
      return prepareSettings(endpoint, openSecret);
    } catch (err) {
      // The sender only sees 503 endpoint_unavailable; the operator sees why, here.
      logger.error('endpoint settings could not be prepared; the endpoint answers 503 until fixed', { endpoint_id: endpoint.id, revision: endpoint.revision, error: (err as Error).message });
      return null;
    }
  };

  const readPlan = async (accountId: string, why: StoreReadWhy): Promise<Plan> => {
    metrics.storeRead('plan', why);
    const plan = planOf(await store.accounts.findById(accountId).lean<AccountDoc>());
    plans.set(accountId, plan);
    return plan;
  };

  const routeOf = (endpointId: string, t: TargetDoc): RoutePredicate | null | 'unusable' =>
    routes.get(t._id, t.updated_at ? new Date(t.updated_at).getTime() : 0, () => {
      try {
        return compileRouting(t.routing);
      } catch (err) {
        logger.error('target routing rules could not be compiled; the endpoint answers 503 until fixed', { endpoint_id: endpointId, target_id: t._id, error: (err as Error).message });
        return 'unusable';
      }
    });

  const viewOf = (doc: unknown, targets: TargetDoc[], plan: Plan): EndpointView => {
    const endpoint = toEndpoint(doc as Parameters<typeof toEndpoint>[0]);
    let usable = true;
    const view = {
      endpoint,
      settings: prepared.get(endpoint.id, revisionOf(endpoint), () => prepare(endpoint)),
      targets: targets.flatMap((t) => {
        const channel = channelOf(t.kind);
        if (!channel) {
          logger.warn('target of unknown kind skipped', { endpoint_id: endpoint.id, target_id: t._id, kind: t.kind });
          return [];
        }
        const route = routeOf(endpoint.id, t);
        if (route === 'unusable') usable = false;
        return [{ id: t._id, kind: t.kind, channel, route: route === 'unusable' ? null : route }];
      }),
      plan,
    };
    // a rule that does not compile must not silently send a target every event, or none
    return usable ? view : { ...view, settings: null };
  };

  const readTargets = (filter: Record<string, unknown>, why: StoreReadWhy): Promise<TargetDoc[]> => {
    metrics.storeRead('targets', why);
    return store.targets.find({ ...filter, enabled: true }).select({ _id: 1, endpoint_id: 1, kind: 1, routing: 1, updated_at: 1 }).lean<TargetDoc[]>().exec();
  };

  return {
    async load(endpointId) {
      metrics.storeRead('endpoint', 'miss');
      const [doc, targets] = await Promise.all([store.endpoints.findById(endpointId).lean().exec(), readTargets({ endpoint_id: endpointId }, 'miss')]);
      if (!doc) return null;
      const accountId = (doc as { account_id: string }).account_id;
      const plan = plans.get(accountId) ?? (await readPlan(accountId, 'miss'));
      return viewOf(doc, targets, plan);
    },

    async loadMany(endpointIds, accountIds) {
      metrics.storeRead('endpoint', 'revalidate');
      metrics.storeRead('plan', 'revalidate');
      const [docs, targets, accounts] = await Promise.all([
        store.endpoints.find({ _id: { $in: endpointIds } }).lean().exec(),
        readTargets({ endpoint_id: { $in: endpointIds } }, 'revalidate'),
        store.accounts.find({ _id: { $in: accountIds } }).select({ _id: 1, plan: 1 }).lean<AccountDoc[]>().exec(),
      ]);
      for (const a of accounts) plans.set(a._id, planOf(a));
      const targetsOf = new Map<string, TargetDoc[]>();
      for (const t of targets) targetsOf.set(t.endpoint_id, [...(targetsOf.get(t.endpoint_id) ?? []), t]);
      const out = new Map<string, EndpointView | null>(endpointIds.map((id) => [id, null]));
      for (const doc of docs) {
        const { _id: id, account_id: accountId } = doc as unknown as { _id: string; account_id: string };
        out.set(id, viewOf(doc, targetsOf.get(id) ?? [], plans.get(accountId) ?? planOf(null)));
      }
      return out;
    },

    forgetPlan: (accountId) => void plans.delete(accountId),
    reloadPlan(accountId) {
      plans.delete(accountId);
      return readPlan(accountId, 'miss');
    },
  };
}
