import { LRUCache } from '@relay/cache';
import type { CacheMetrics, StoreReadWhy } from '@relay/cache';
import type { Logger } from '@relay/logging';
import { compileOrderKey, compileRouting } from '@relay/endpoints';
import type { RoutePredicate } from '@relay/endpoints';
import { accountPlan, accountPlans, enabledTargetRoutes, findEndpoint, findEndpoints } from '@relay/store';
import type { EndpointRecord, Store, StoredPlan, TargetRoute } from '@relay/store';
import { channelOf, mirrorPercentOf } from '@relay/targets';
import { prepareSettings } from '../domain/endpoint-settings';
import type { EndpointSettings } from '../domain/endpoint-settings';
import type { EndpointView } from '../domain/endpoint-view';
import { RevisionCache } from '../domain/rules/revision-cache';

/** Plan values of an account whose plan is missing (defaults of the starter plan). */
const DEFAULT_PLAN = { payload_limit_bytes: 262144, monthly_accepted_events: 0 };

type Plan = EndpointView['plan'];

/** `revision` is bumped on every change; `updated_at` too guards against a writer that forgot to bump it. */
function revisionOf(endpoint: EndpointRecord): string {
  return `${endpoint.revision}:${new Date(endpoint.updated_at).getTime()}`;
}

function targetRevisionOf(target: TargetRoute): number {
  return target.updated_at ? new Date(target.updated_at).getTime() : 0;
}

function planOf(stored: StoredPlan | undefined): Plan {
  return {
    payload_limit_bytes: stored?.payload_limit_bytes ?? DEFAULT_PLAN.payload_limit_bytes,
    monthly_accepted_events: stored?.monthly_accepted_events ?? DEFAULT_PLAN.monthly_accepted_events,
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
export function createEndpointLoader(
  store: Store,
  logger: Logger,
  openSecret: (sealed: string) => string,
  maxPrepared: number,
  metrics: CacheMetrics,
): EndpointLoader {
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
      logger.error('endpoint settings could not be prepared; the endpoint answers 503 until fixed', {
        endpoint_id: endpoint.id,
        revision: endpoint.revision,
        error: (err as Error).message,
      });
      return null;
    }
  };

  const readPlan = async (accountId: string, why: StoreReadWhy): Promise<Plan> => {
    metrics.storeRead('plan', why);
    const plan = planOf(await accountPlan(store, accountId));
    plans.set(accountId, plan);
    return plan;
  };

  const routeOf = (endpointId: string, t: TargetRoute): RoutePredicate | null | 'unusable' =>
    routes.get(t.id, targetRevisionOf(t), () => {
      try {
        return compileRouting(t.routing);
      } catch (err) {
        logger.error('target routing rules could not be compiled; the endpoint answers 503 until fixed', {
          endpoint_id: endpointId,
          target_id: t.id,
          error: (err as Error).message,
        });
        return 'unusable';
      }
    });

  const viewOf = (endpoint: EndpointRecord, targets: TargetRoute[], plan: Plan): EndpointView => {
    let usable = true;
    const view = {
      endpoint,
      settings: prepared.get(endpoint.id, revisionOf(endpoint), () => prepare(endpoint)),
      targets: targets.flatMap((t) => {
        const channel = channelOf(t.kind);
        if (!channel) {
          logger.warn('target of unknown kind skipped', { endpoint_id: endpoint.id, target_id: t.id, kind: t.kind });
          return [];
        }
        const route = routeOf(endpoint.id, t);
        if (route === 'unusable') usable = false;
        const mirror = mirrorPercentOf(t.kind, t);
        return [
          {
            id: t.id,
            kind: t.kind,
            channel,
            route: route === 'unusable' ? null : route,
            routing: t.routing ?? null,
            orderKey: t.ordering ? compileOrderKey(t.ordering.key) : null,
            ...(mirror === null ? {} : { mirror }),
          },
        ];
      }),
      rulesKey: [endpoint.id, revisionOf(endpoint), ...targets.map((t) => `${t.id}:${targetRevisionOf(t)}`)].join('|'),
      plan,
    };
    // a rule that does not compile must not silently send a target every event, or none
    return usable ? view : { ...view, settings: null };
  };

  const readTargets = (endpointIds: string | string[], why: StoreReadWhy): Promise<TargetRoute[]> => {
    metrics.storeRead('targets', why);
    return enabledTargetRoutes(store, endpointIds);
  };

  return {
    async load(endpointId) {
      metrics.storeRead('endpoint', 'miss');
      const [endpoint, targets] = await Promise.all([findEndpoint(store, endpointId), readTargets(endpointId, 'miss')]);
      if (!endpoint) return null;
      const plan = plans.get(endpoint.account_id) ?? (await readPlan(endpoint.account_id, 'miss'));
      return viewOf(endpoint, targets, plan);
    },

    async loadMany(endpointIds, accountIds) {
      metrics.storeRead('endpoint', 'revalidate');
      metrics.storeRead('plan', 'revalidate');
      const [endpoints, targets, stored] = await Promise.all([
        findEndpoints(store, endpointIds),
        readTargets(endpointIds, 'revalidate'),
        accountPlans(store, accountIds),
      ]);
      for (const [accountId, plan] of stored) plans.set(accountId, planOf(plan));
      const targetsOf = new Map<string, TargetRoute[]>();
      for (const t of targets) targetsOf.set(t.endpoint_id, [...(targetsOf.get(t.endpoint_id) ?? []), t]);
      const out = new Map<string, EndpointView | null>(endpointIds.map((id) => [id, null]));
      for (const endpoint of endpoints)
        out.set(
          endpoint.id,
          viewOf(endpoint, targetsOf.get(endpoint.id) ?? [], plans.get(endpoint.account_id) ?? planOf(null)),
        );
      return out;
    },

    forgetPlan: (accountId) => void plans.delete(accountId),
    reloadPlan(accountId) {
      plans.delete(accountId);
      return readPlan(accountId, 'miss');
    },
  };
}
