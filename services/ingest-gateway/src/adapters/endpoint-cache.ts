import type { Redis } from 'ioredis';
import { endpointChangedChannel } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { toEndpoint } from '@relay/store';
import type { Store } from '@relay/store';
import type { EndpointRecord } from '@relay/store';
import { channelOf } from '@relay/targets';
import { prepareSettings } from '../domain/endpoint-settings';
import type { EndpointSettings } from '../domain/endpoint-settings';
import type { EndpointSource, EndpointView } from '../domain/endpoint-view';
import { RevisionCache } from '../domain/rules/revision-cache';

interface Entry {
  view: EndpointView | null;
  expires: number;
}

/** `revision` is bumped on every change; `updated_at` too guards against a writer that forgot to bump it. */
function revisionOf(endpoint: EndpointRecord): string {
  return `${endpoint.revision}:${new Date(endpoint.updated_at).getTime()}`;
}

/**
 * In-process cache of endpoints with their targets and plan, so the hot path does no
 * database read. Entries expire after `ttlMs`; the management API also publishes changed
 * endpoint ids on Redis and every gateway evicts them at once. Unknown ids are cached too
 * (briefly) so random URLs cannot turn into a database load.
 *
 * Secrets are opened and rules compiled when an endpoint is loaded, once per `revision`
 * (a reload after the TTL with an unchanged revision reuses them), never per request.
 */
export class EndpointCache implements EndpointSource {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<EndpointView | null>>();
  private readonly prepared = new RevisionCache<EndpointSettings | null>();

  constructor(
    private readonly store: Store,
    private readonly ttlMs: number,
    private readonly logger: Logger,
    /** opens a sealed secret (`createSecretBox(SECRETS_KEYS).decrypt`) */
    private readonly openSecret: (sealed: string) => string,
  ) {}

  async get(endpointId: string): Promise<EndpointView | null> {
    const hit = this.entries.get(endpointId);
    if (hit && hit.expires > Date.now()) return hit.view;
    let pending = this.loading.get(endpointId);
    if (!pending) {
      pending = this.load(endpointId).finally(() => this.loading.delete(endpointId));
      this.loading.set(endpointId, pending);
    }
    return pending;
  }

  invalidate(endpointId: string): void {
    this.entries.delete(endpointId);
  }

  /** Subscribes to change announcements on a dedicated Redis connection. */
  async follow(subscriber: Redis, namespace: string): Promise<void> {
    const channel = endpointChangedChannel(namespace);
    subscriber.on('message', (ch: string, endpointId: string) => {
      if (ch === channel) this.invalidate(endpointId);
    });
    // after a Redis reconnect announcements may have been missed: start from a clean cache
    subscriber.on('ready', () => this.entries.clear());
    await subscriber.subscribe(channel);
  }

  private async load(endpointId: string): Promise<EndpointView | null> {
    const doc = await this.store.endpoints.findById(endpointId).lean();
    let view: EndpointView | null = null;
    if (doc) {
      const endpoint = toEndpoint(doc);
      const [targets, account] = await Promise.all([
        this.store.targets.find({ endpoint_id: endpointId, enabled: true }).select({ _id: 1, kind: 1 }).lean(),
        this.store.accounts.findById(endpoint.account_id).lean(),
      ]);
      view = {
        endpoint,
        settings: this.prepared.get(endpoint.id, revisionOf(endpoint), () => this.prepare(endpoint)),
        targets: targets.flatMap((t) => {
          const channel = channelOf(t.kind);
          if (!channel) {
            this.logger.warn('target of unknown kind skipped', { endpoint_id: endpointId, target_id: t._id, kind: t.kind });
            return [];
          }
          return [{ id: t._id, kind: t.kind, channel }];
        }),
        plan: {
          payload_limit_bytes: account?.plan?.payload_limit_bytes ?? 262144,
          monthly_accepted_events: account?.plan?.monthly_accepted_events ?? 0,
        },
      };
    }
    const ttl = view ? this.ttlMs : Math.min(this.ttlMs, 1000);
    this.entries.set(endpointId, { view, expires: Date.now() + ttl });
    return view;
  }

  private prepare(endpoint: EndpointRecord): EndpointSettings | null {
    try {
      return prepareSettings(endpoint, this.openSecret);
    } catch (err) {
      // The sender only sees 503 endpoint_unavailable; the operator sees why, here.
      this.logger.error('endpoint settings could not be prepared; the endpoint answers 503 until fixed', { endpoint_id: endpoint.id, revision: endpoint.revision, error: (err as Error).message });
      return null;
    }
  }
}
