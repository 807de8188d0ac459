import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { ResyncReason } from './change-feed';

/** What a store read of a settings cache fetched: one endpoint, one endpoint's targets, one plan, one target (deliverers). */
const STORE_READ_WHAT = ['endpoint', 'targets', 'plan', 'target'] as const;
type StoreReadWhat = (typeof STORE_READ_WHAT)[number];
/** miss: a lookup found nothing cached (or was told it changed); revalidate: a paced pass (batches of many keys per read). */
const STORE_READ_WHY = ['miss', 'revalidate'] as const;
export type StoreReadWhy = (typeof STORE_READ_WHY)[number];
const RESYNC_REASONS: readonly ResyncReason[] = ['missed', 'deaf', 'resubscribed', 'sweep'];

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
  const reads = new Counter({
    name: 'relay_store_reads_total',
    help: 'store commands sent by the caches of settings (endpoints, targets, plans), by what they read and why',
    labelNames: ['what', 'why'],
    registers: [registry],
  });
  const resyncs = new Counter({
    name: 'relay_cache_resyncs_total',
    help: 'revalidation passes asked for, by why: missed (an announcement was missed), deaf (Redis unreachable), resubscribed, sweep',
    labelNames: ['why'],
    registers: [registry],
  });
  // every series exists from the start at 0: a process that has read nothing yet exports 0, not
  // nothing, so rate() and a reader comparing two scrapes see a value (an absent series read as
  // "no data" in the multi-tenant bench)
  for (const what of STORE_READ_WHAT) for (const why of STORE_READ_WHY) reads.inc({ what, why }, 0);
  for (const why of RESYNC_REASONS) resyncs.inc({ why }, 0);
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
