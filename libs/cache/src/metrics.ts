import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { ResyncReason } from './change-feed';

/** What a store read of a settings cache fetched: one endpoint, one endpoint's targets, one plan, one target (deliverers). */
export type StoreReadWhat = 'endpoint' | 'targets' | 'plan' | 'target';
/** miss: a lookup found nothing cached (or was told it changed); revalidate: a paced pass (batches of many keys per read). */
export type StoreReadWhy = 'miss' | 'revalidate';

export interface CacheMetrics {
  /** one per store command a settings cache sends */
  storeRead(what: StoreReadWhat, why: StoreReadWhy): void;
  /** the feed asked for a revalidation pass */
  resync(why: ResyncReason): void;
  /** reports a cache's size on `relay_cache_entries{cache}` */
  watchSize(cache: string, size: () => number): void;
}

/**
 * `relay_store_reads_total{what,why}`: the store commands the gateway's and deliverers' caches
 * send. In steady state it does not grow with the number of endpoints (rate() of it is the
 * "store reads per second" of docs/benchmarks.md); `relay_cache_resyncs_total{why}` says why
 * a revalidation pass ran; `relay_cache_entries{cache}` how much each cache holds.
 */
export function createCacheMetrics(registry: Registry): CacheMetrics {
  const sizes = new Map<string, () => number>();
  const reads = new Counter({ name: 'relay_store_reads_total', help: 'store commands sent by the caches of settings (endpoints, targets, plans), by what they read and why', labelNames: ['what', 'why'], registers: [registry] });
  const resyncs = new Counter({ name: 'relay_cache_resyncs_total', help: 'revalidation passes asked for, by why: missed (an announcement was missed), deaf (Redis unreachable), resubscribed, sweep', labelNames: ['why'], registers: [registry] });
  new Gauge({
    name: 'relay_cache_entries',
    help: 'entries held by each cache of settings (bounded by its *_CACHE_MAX)',
    labelNames: ['cache'],
    registers: [registry],
    collect() {
      for (const [cache, size] of sizes) this.set({ cache }, size());
    },
  });
  return {
    storeRead: (what, why) => reads.inc({ what, why }),
    resync: (why) => resyncs.inc({ why }),
    watchSize: (cache, size) => void sizes.set(cache, size),
  };
}
