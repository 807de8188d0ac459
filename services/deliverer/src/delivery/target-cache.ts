import { LRUCache, PacedRevalidation } from '@relay/cache';
import type { CacheMetrics, ChangeFeed } from '@relay/cache';
import type { CacheChange } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { findTarget, findTargets } from '@relay/store';
import type { Store, TargetRecord } from '@relay/store';
import type { TargetLookup } from './ports';

/** null: the target does not exist (deleted); kept too, so its queued deliveries cost no read each */
type Entry = { value: TargetRecord | null };

export interface TargetCacheOptions {
  store: Store;
  /** targets kept, least recently used dropped first (TARGET_CACHE_MAX) */
  maxEntries: number;
  metrics: CacheMetrics;
  logger: Logger;
}

/**
 * Target configurations cached until an announcement says they changed (a setting, enabled,
 * the flag, deletion — docs/architecture.md "Caches of settings"), so steady-state store reads
 * do not grow with the number of targets. Concurrent misses for one id share one read. While
 * announcements are not heard, revalidation passes (driven by the feed) keep entries current.
 */
export class TargetCache implements TargetLookup {
  private readonly entries: LRUCache<string, Entry>;
  private readonly loading = new Map<string, Promise<TargetRecord | null>>();
  /** bumped by every eviction: a read that started before one must not put back what was evicted */
  private epoch = 0;

  constructor(private readonly opts: TargetCacheOptions) {
    this.entries = new LRUCache({ max: opts.maxEntries });
  }

  async find(targetId: string): Promise<TargetRecord | null> {
    const hit = this.entries.get(targetId);
    if (hit) return hit.value;
    let pending = this.loading.get(targetId);
    if (!pending) {
      const epoch = this.epoch;
      this.opts.metrics.storeRead('target', 'miss');
      pending = findTarget(this.opts.store, targetId).then((value) => {
        if (epoch === this.epoch) this.entries.set(targetId, { value });
        return value;
      });
      this.loading.set(targetId, pending);
      const done = (): void => void this.loading.delete(targetId);
      pending.then(done, done);
    }
    return pending;
  }

  /** drops one cached target, e.g. after this process flagged it */
  forget(targetId: string): void {
    this.epoch += 1;
    this.entries.delete(targetId);
  }

  /** Applies one announcement: a target drops itself; an endpoint (deleted with its targets) drops all of its. */
  told(change: CacheChange): void {
    if (change.scope === 'target') return this.forget(change.id);
    if (change.scope !== 'endpoint') return;
    for (const [id, e] of this.entries.entries()) if (e.value?.endpoint_id === change.id) this.forget(id);
  }

  /** Reads one batch of held targets again (one `_id` read each, a few at once); replaces those still held as they were. */
  async revalidate(targetIds: string[]): Promise<void> {
    const held = targetIds.flatMap((id) => {
      const e = this.entries.peek(id);
      return e ? [[id, e] as const] : [];
    });
    if (held.length === 0) return;
    this.opts.metrics.storeRead('target', 'revalidate');
    const fresh = new Map(
      (
        await findTargets(
          this.opts.store,
          held.map(([id]) => id),
        )
      ).map((t) => [t.id, t]),
    );
    for (const [id, e] of held) if (this.entries.peek(id) === e) e.value = fresh.get(id) ?? null;
  }

  follow(feed: ChangeFeed, pacing: { batchSize: number; pauseMs: number }): void {
    const passes = new PacedRevalidation({
      keys: () => [...this.entries.keys()],
      revalidate: (ids) => this.revalidate(ids),
      ...pacing,
      logger: this.opts.logger,
    });
    feed.onChange((change) => this.told(change));
    feed.onResync((why) => {
      this.opts.metrics.resync(why);
      passes.request();
    });
    this.opts.metrics.watchSize('targets', () => this.entries.size);
  }

  /** the held targets (deleted ones not included), for gauges over what this process knows */
  *held(): IterableIterator<TargetRecord> {
    for (const e of this.entries.values()) if (e.value) yield e.value;
  }

  get size(): number {
    return this.entries.size;
  }
}
