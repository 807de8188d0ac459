import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { endpointChangedChannel, isIdOf } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { EndpointLookupUnavailableError } from '../domain/endpoint-view';
import type { EndpointSource, EndpointView } from '../domain/endpoint-view';

export interface EndpointCacheOptions {
  /** reads one endpoint from the store (endpoint-loader.ts); null when there is none */
  load(endpointId: string): Promise<EndpointView | null>;
  /** an endpoint is read again after this long (changes are also pushed through Redis) */
  ttlMs: number;
  /** endpoints kept, least recently used dropped first; unknown ids have a second cache of this size */
  maxEntries: number;
  /** how long past `ttlMs` a known endpoint may still be served while the store cannot be read */
  staleIfErrorMs: number;
  /** a store read slower than this counts as failed */
  loadTimeoutMs: number;
  logger: Logger;
  /** a lookup the store could not answer: served from a stale copy, or refused (503) */
  onLookupFailure(served: 'stale' | 'unavailable'): void;
  now?: () => number;
}

/** Unknown ids are remembered this long (or `ttlMs`, if shorter): a new endpoint is usable within a second. */
const UNKNOWN_TTL_MS = 1000;
/** After a failed read the store is not asked again for this long: each request would wait for the timeout. */
const RETRY_AFTER_FAILURE_MS = 1000;

interface Known {
  view: EndpointView;
  loadedAt: number;
}

/**
 * In-process cache of endpoints with their targets and plan, so the hot path does no store read
 * (docs/architecture.md "Endpoint cache"). Bounded in every dimension a sender controls:
 *
 * - an id that is not the shape of an endpoint id is unknown without a read;
 * - known endpoints and unknown ids each live in an LRU of `maxEntries`; unknown ids expire
 *   after a second;
 * - one read per id at a time, however many requests wait for it.
 *
 * When the store cannot be read (error, or slower than `loadTimeoutMs`), a known endpoint is
 * served from its last copy for up to `staleIfErrorMs` past its TTL; without one the lookup
 * fails with EndpointLookupUnavailableError (503). After a failure the store is not asked for a
 * second, and then by one read at a time until it answers, so an outage costs each request
 * nothing rather than the timeout.
 */
export class EndpointCache implements EndpointSource {
  private readonly known: LRUCache<string, Known>;
  /** unknown id → when that stops being believed */
  private readonly unknown: LRUCache<string, number>;
  private readonly loading = new Map<string, Promise<EndpointView | null>>();
  private readonly now: () => number;
  /** bumped by every eviction: a read that started before one must not put back what was evicted */
  private epoch = 0;
  private skipUntil = 0;
  private degraded = false;

  constructor(private readonly opts: EndpointCacheOptions) {
    this.known = new LRUCache({ max: opts.maxEntries });
    this.unknown = new LRUCache({ max: opts.maxEntries });
    this.now = opts.now ?? Date.now;
  }

  async get(endpointId: string): Promise<EndpointView | null> {
    if (!isIdOf('ep', endpointId)) return null;
    const now = this.now();
    const hit = this.known.get(endpointId);
    if (hit && now - hit.loadedAt < this.opts.ttlMs) return hit.view;
    const unknownUntil = this.unknown.get(endpointId);
    if (unknownUntil !== undefined && unknownUntil > now) return null;
    const stale = hit && now - hit.loadedAt <= this.opts.ttlMs + this.opts.staleIfErrorMs ? hit.view : null;
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

  clear(): void {
    this.epoch += 1;
    this.known.clear();
    this.unknown.clear();
  }

  get size(): { known: number; unknown: number } {
    return { known: this.known.size, unknown: this.unknown.size };
  }

  /** Subscribes to change announcements on a dedicated Redis connection. */
  async follow(subscriber: Redis, namespace: string): Promise<void> {
    const channel = endpointChangedChannel(namespace);
    subscriber.on('message', (ch: string, endpointId: string) => {
      if (ch === channel) this.invalidate(endpointId);
    });
    // after a Redis reconnect announcements may have been missed: start from a clean cache
    subscriber.on('ready', () => this.clear());
    await subscriber.subscribe(channel);
  }

  /** One store read per id at a time; its result is kept unless an eviction came meanwhile. */
  private read(endpointId: string): Promise<EndpointView | null> {
    let pending = this.loading.get(endpointId);
    if (!pending) {
      const epoch = this.epoch;
      pending = this.opts.load(endpointId).then((view) => {
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
      this.known.set(endpointId, { view, loadedAt: now });
      this.unknown.delete(endpointId);
      return;
    }
    this.known.delete(endpointId);
    const ttl = Math.min(this.opts.ttlMs, UNKNOWN_TTL_MS);
    if (ttl > 0) this.unknown.set(endpointId, now + ttl);
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
    this.opts.logger.warn('endpoint store unreadable: serving cached endpoints up to their stale limit, 503 for the rest', { error: err instanceof Error ? err.message : String(err) });
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
