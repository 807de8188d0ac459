import type { Redis } from 'ioredis';
import type { Logger } from '@relay/logging';
import { toEndpoint } from '@relay/store';
import type { Store } from '@relay/store';
import { channelOf } from '@relay/targets';
import type { EndpointSource, EndpointView } from '../domain/endpoint-view';

interface Entry {
  view: EndpointView | null;
  expires: number;
}

/** Channel on which the management API announces a changed endpoint id. */
export function endpointChangedChannel(namespace: string): string {
  return `${namespace}:endpoint-changed`;
}

/**
 * In-process cache of endpoints with their targets and plan, so the hot path does no
 * database read. Entries expire after `ttlMs`; the management API also publishes changed
 * endpoint ids on Redis and every gateway evicts them at once. Unknown ids are cached too
 * (briefly) so random URLs cannot turn into a database load.
 */
export class EndpointCache implements EndpointSource {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<EndpointView | null>>();

  constructor(
    private readonly store: Store,
    private readonly ttlMs: number,
    private readonly logger: Logger,
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
}
