import { LRUCache, PacedRevalidation } from '@relay/cache';
import type { ChangeFeed, CacheMetrics } from '@relay/cache';
import { isIdOf } from '@relay/contracts';
import type { CacheChange } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { EndpointLookupUnavailableError } from '../domain/endpoint-view';
import type { EndpointSource, EndpointView } from '../domain/endpoint-view';
import type { EndpointLoader } from './endpoint-loader';

export interface EndpointCacheOptions {
  /** reads endpoints from the store (endpoint-loader.ts) */
  loader: EndpointLoader;
  /** endpoints kept, least recently used dropped first; unknown ids have a second cache of this size */
  maxEntries: number;
  /** while changes are not heard and the store cannot be read, how long since its last read a known endpoint may still be served */
  staleIfErrorMs: number;
  /** a store read slower than this counts as failed */
  loadTimeoutMs: number;
  logger: Logger;
  /** a lookup the store could not answer: served from a stale copy, or refused (503) */
  onLookupFailure(served: 'stale' | 'unavailable'): void;
  now?: () => number;
}

/** Unknown ids are remembered this long: a new endpoint is usable within a second even if its id was asked for before. */
const UNKNOWN_TTL_MS = 1000;
/** After a failed read the store is not asked again for this long: each request would wait for the timeout. */
const RETRY_AFTER_FAILURE_MS = 1000;

interface Known {
  view: EndpointView;
  /** when the store last confirmed this copy (a load or a revalidation pass) */
  verifiedAt: number;
}

/**
 * In-process cache of endpoints with their targets and plan, so the hot path does no store read
 * (docs/architecture.md "Caches of settings"). An entry is kept until an announcement says it
 * changed (`told`), not for a time: steady-state store reads do not grow with the number of
 * endpoints. When announcements may have been missed, `revalidate` reads what is held in paced
 * batches. Bounded in every dimension a sender controls:
 *
 * - an id that is not the shape of an endpoint id is unknown without a read;
 * - known endpoints and unknown ids each live in an LRU of `maxEntries`; unknown ids expire
 *   after a second;
 * - one read per id at a time, however many requests wait for it.
 *
 * While announcements are heard an entry is always served. While they are not (`isTold`
 * false), revalidation passes keep entries current; if the store cannot be read either, a known
 * endpoint is served from its last copy for up to `staleIfErrorMs` since it was last read, then
 * the lookup fails with EndpointLookupUnavailableError (503). After a failure the store is not
 * asked for a second, and then by one read at a time until it answers.
 */
export class EndpointCache implements EndpointSource {
  private readonly known: LRUCache<string, Known>;
  /** unknown id → when that stops being believed */
  private readonly unknown: LRUCache<string, number>;
  private readonly loading = new Map<string, Promise<EndpointView | null>>();
  /** accounts whose new plan is being read: their endpoints' lookups wait for it, so no request after the announcement sees the old plan */
  private readonly replanning = new Map<string, Promise<void>>();
  private readonly now: () => number;
  /** bumped by every eviction: a read that started before one must not put back what was evicted */
  private epoch = 0;
  private skipUntil = 0;
  private degraded = false;
  private isTold: () => boolean = () => false;

  constructor(private readonly opts: EndpointCacheOptions) {
    this.known = new LRUCache({ max: opts.maxEntries });
    this.unknown = new LRUCache({ max: opts.maxEntries });
    this.now = opts.now ?? Date.now;
  }

  async get(endpointId: string): Promise<EndpointView | null> {
    if (!isIdOf('ep', endpointId)) return null;
    const now = this.now();
    const hit = this.known.get(endpointId);
    const stale = hit && now - hit.verifiedAt <= this.opts.staleIfErrorMs ? hit.view : null;
    if (hit && (this.isTold() || stale)) {
      const replan = this.replanning.get(hit.view.endpoint.account_id);
      if (replan) await replan;
      return hit.view;
    }
    const unknownUntil = this.unknown.get(endpointId);
    if (unknownUntil !== undefined && unknownUntil > now) return null;
    if (now < this.skipUntil) return this.fallBack(stale, null);
    // while degraded, the read that finds out whether the store is back is the only one
    if (this.degraded) this.skipUntil = now + this.opts.loadTimeoutMs;
    try {
      return await this.read(endpointId);
    } catch (err) {
      this.failed(err);
      return this.fallBack(stale, err);
    }
  }

  invalidate(endpointId: string): void {
    this.epoch += 1;
    this.known.delete(endpointId);
    this.unknown.delete(endpointId);
  }

  /** Applies one announcement: drops the endpoint it names, or replaces an account's plan in place. */
  async told(change: CacheChange): Promise<void> {
    if (change.scope === 'endpoint') return this.invalidate(change.id);
    if (change.scope === 'target') return this.invalidate(change.endpoint_id);
    // a read in flight may carry the old plan: not kept
    this.epoch += 1;
    const ofAccount = [...this.known.entries()].filter(([, k]) => k.view.endpoint.account_id === change.id);
    if (ofAccount.length === 0) return this.opts.loader.forgetPlan(change.id);
    const replan = this.replan(change.id, ofAccount);
    this.replanning.set(change.id, replan);
    await replan;
    if (this.replanning.get(change.id) === replan) this.replanning.delete(change.id);
  }

  /** Reads the account's plan once and puts it in each of its endpoints still held as they were; unread, they are dropped. */
  private async replan(accountId: string, ofAccount: [string, Known][]): Promise<void> {
    const plan = await withTimeout(this.opts.loader.reloadPlan(accountId), this.opts.loadTimeoutMs).catch(() => null);
    for (const [id, k] of ofAccount) {
      if (this.known.peek(id) !== k) continue;
      if (plan) k.view = { ...k.view, plan };
      else this.invalidate(id);
    }
  }

  /** Reads one batch of held endpoints again; replaces those still held as they were, drops the deleted. */
  async revalidate(endpointIds: string[]): Promise<void> {
    const held = endpointIds.flatMap((id) => {
      const k = this.known.peek(id);
      return k ? [[id, k] as const] : [];
    });
    if (held.length === 0) return;
    const accounts = [...new Set(held.map(([, k]) => k.view.endpoint.account_id))];
    const fresh = await withTimeout(
      this.opts.loader.loadMany(
        held.map(([id]) => id),
        accounts,
      ),
      this.opts.loadTimeoutMs,
    );
    const now = this.now();
    for (const [id, k] of held) {
      if (this.known.peek(id) !== k) continue;
      const view = fresh.get(id);
      if (!view) {
        this.known.delete(id);
        continue;
      }
      k.view = view;
      k.verifiedAt = now;
    }
  }

  /**
   * Follows the change announcements: each is applied as it comes; when some may have been
   * missed, what is held is revalidated in paced batches.
   */
  follow(feed: ChangeFeed, pacing: { batchSize: number; pauseMs: number }, metrics: CacheMetrics): void {
    this.isTold = () => feed.isLive();
    const passes = new PacedRevalidation({
      keys: () => [...this.known.keys()],
      revalidate: (ids) => this.revalidate(ids),
      ...pacing,
      logger: this.opts.logger,
    });
    feed.onChange((change) => void this.told(change));
    feed.onResync((why) => {
      metrics.resync(why);
      passes.request();
    });
    metrics.watchSize('endpoints', () => this.known.size);
  }

  get size(): { known: number; unknown: number } {
    return { known: this.known.size, unknown: this.unknown.size };
  }

  /** One store read per id at a time; its result is kept unless an eviction came meanwhile. */
  private read(endpointId: string): Promise<EndpointView | null> {
    let pending = this.loading.get(endpointId);
    if (!pending) {
      const epoch = this.epoch;
      pending = this.opts.loader.load(endpointId).then((view) => {
        this.recovered();
        if (epoch === this.epoch) this.remember(endpointId, view);
        return view;
      });
      this.loading.set(endpointId, pending);
      const done = (): void => void this.loading.delete(endpointId);
      pending.then(done, done);
    }
    return withTimeout(pending, this.opts.loadTimeoutMs);
  }

  private remember(endpointId: string, view: EndpointView | null): void {
    const now = this.now();
    if (view) {
      this.known.set(endpointId, { view, verifiedAt: now });
      this.unknown.delete(endpointId);
      return;
    }
    this.known.delete(endpointId);
    this.unknown.set(endpointId, now + UNKNOWN_TTL_MS);
  }

  private fallBack(stale: EndpointView | null, err: unknown): EndpointView {
    this.opts.onLookupFailure(stale ? 'stale' : 'unavailable');
    if (stale) return stale;
    throw new EndpointLookupUnavailableError(err);
  }

  private failed(err: unknown): void {
    this.skipUntil = this.now() + RETRY_AFTER_FAILURE_MS;
    if (this.degraded) return;
    this.degraded = true;
    this.opts.logger.warn(
      'endpoint store unreadable: serving cached endpoints up to their stale limit, 503 for the rest',
      { error: err instanceof Error ? err.message : String(err) },
    );
  }

  private recovered(): void {
    this.skipUntil = 0;
    if (!this.degraded) return;
    this.degraded = false;
    this.opts.logger.info('endpoint store readable again');
  }
}

class LoadTimeoutError extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new LoadTimeoutError(`endpoint read took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
