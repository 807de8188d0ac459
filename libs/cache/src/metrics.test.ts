import { Registry } from 'prom-client';
import { createCacheMetrics } from './metrics';

describe('cache metrics', () => {
  it('export relay_store_reads_total at 0 for every what and why before the first read, so a scrape always has a value', async () => {
    const registry = new Registry();
    createCacheMetrics(registry);
    const text = await registry.metrics();
    expect(text).toContain('relay_store_reads_total{what="endpoint",why="miss"} 0');
    expect(text).toContain('relay_store_reads_total{what="target",why="revalidate"} 0');
    expect(text).toContain('relay_cache_resyncs_total{why="deaf"} 0');
  });

  it('count each store read under its labels', async () => {
    const registry = new Registry();
    createCacheMetrics(registry).storeRead('plan', 'miss');
    expect(await registry.metrics()).toContain('relay_store_reads_total{what="plan",why="miss"} 1');
  });
});
