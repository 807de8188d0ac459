import type { Logger } from '@relay/logging';
import { toEndpoint } from '@relay/store';
import type { EndpointRecord, Store } from '@relay/store';
import { channelOf } from '@relay/targets';
import { prepareSettings } from '../domain/endpoint-settings';
import type { EndpointSettings } from '../domain/endpoint-settings';
import type { EndpointView } from '../domain/endpoint-view';
import { RevisionCache } from '../domain/rules/revision-cache';

/** Plan values of an account whose plan is missing (defaults of the starter plan). */
const DEFAULT_PLAN = { payload_limit_bytes: 262144, monthly_accepted_events: 0 };

/** `revision` is bumped on every change; `updated_at` too guards against a writer that forgot to bump it. */
function revisionOf(endpoint: EndpointRecord): string {
  return `${endpoint.revision}:${new Date(endpoint.updated_at).getTime()}`;
}

/**
 * Reads one endpoint with its enabled targets and its account's plan from the store (three
 * reads), and prepares its settings. Secrets are opened and rules compiled once per endpoint
 * revision (a reload with an unchanged revision reuses them), never per request.
 */
export function createEndpointLoader(store: Store, logger: Logger, openSecret: (sealed: string) => string, maxPrepared: number) {
  const prepared = new RevisionCache<EndpointSettings | null>(maxPrepared);

  const prepare = (endpoint: EndpointRecord): EndpointSettings | null => {
    try {
      return prepareSettings(endpoint, openSecret);
    } catch (err) {
      // The sender only sees 503 endpoint_unavailable; the operator sees why, here.
      logger.error('endpoint settings could not be prepared; the endpoint answers 503 until fixed', { endpoint_id: endpoint.id, revision: endpoint.revision, error: (err as Error).message });
      return null;
    }
  };

  return async (endpointId: string): Promise<EndpointView | null> => {
    const doc = await store.endpoints.findById(endpointId).lean();
    if (!doc) return null;
    const endpoint = toEndpoint(doc);
    const [targets, account] = await Promise.all([
      store.targets.find({ endpoint_id: endpointId, enabled: true }).select({ _id: 1, kind: 1 }).lean(),
      store.accounts.findById(endpoint.account_id).lean(),
    ]);
    return {
      endpoint,
      settings: prepared.get(endpoint.id, revisionOf(endpoint), () => prepare(endpoint)),
      targets: targets.flatMap((t) => {
        const channel = channelOf(t.kind);
        if (!channel) {
          logger.warn('target of unknown kind skipped', { endpoint_id: endpointId, target_id: t._id, kind: t.kind });
          return [];
        }
        return [{ id: t._id, kind: t.kind, channel }];
      }),
      plan: {
        payload_limit_bytes: account?.plan?.payload_limit_bytes ?? DEFAULT_PLAN.payload_limit_bytes,
        monthly_accepted_events: account?.plan?.monthly_accepted_events ?? DEFAULT_PLAN.monthly_accepted_events,
      },
    };
  };
}
