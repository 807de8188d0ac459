import { PassThrough } from 'node:stream';
import type { CacheMetrics } from '@relay/cache';
import { createLogger } from '@relay/logging';
import type { Store } from '@relay/store';
import { TargetCache } from './target-cache';

/** A store stand-in with every target id existing, counting reads by `_id` (the only kind it serves). */
function fakeStore() {
  const state = { reads: 0, enabled: true };
  const doc = (id: string) => ({
    _id: id,
    account_id: 'acc_1',
    endpoint_id: `ep_of_${id}`,
    kind: 'webhook',
    name: 't',
    enabled: state.enabled,
    config: {},
    flagged: null,
    created_at: new Date(0),
    updated_at: new Date(0),
  });
  const targets = {
    findById: (id: string) => ({
      lean: () => ({ exec: async () => ((state.reads += 1), await Promise.resolve(), doc(id)) }),
    }),
  };
  // the store's functions reach the targets through the models its connection registered
  return { store: { connection: { model: () => targets } } as unknown as Store, state };
}

const metrics: CacheMetrics = { storeRead: () => undefined, resync: () => undefined, watchSize: () => undefined };
const logger = createLogger({ service: 'test', level: 'error', stream: new PassThrough() });

describe('the deliverers\' target cache (docs/architecture.md "Caches of settings")', () => {
  it('stays within TARGET_CACHE_MAX with 100,000 distinct target ids', async () => {
    const { store } = fakeStore();
    const cache = new TargetCache({ store, maxEntries: 1000, metrics, logger });
    for (let i = 0; i < 100_000; i++) await cache.find(`tg_${i}`);
    expect(cache.size).toBe(1000);
  });

  it('concurrent misses for one id share one read; a hit needs none', async () => {
    const { store, state } = fakeStore();
    const cache = new TargetCache({ store, maxEntries: 10, metrics, logger });
    await Promise.all(Array.from({ length: 50 }, () => cache.find('tg_a')));
    await cache.find('tg_a');
    expect(state.reads).toBe(1);
  });

  it("a target announcement drops the target; an endpoint announcement drops the endpoint's targets", async () => {
    const { store, state } = fakeStore();
    const cache = new TargetCache({ store, maxEntries: 10, metrics, logger });
    await cache.find('tg_a');
    await cache.find('tg_b');
    cache.told({ scope: 'target', id: 'tg_a', endpoint_id: 'ep_of_tg_a' });
    cache.told({ scope: 'endpoint', id: 'ep_of_tg_b' });
    cache.told({ scope: 'account', id: 'acc_1' });
    await cache.find('tg_a');
    await cache.find('tg_b');
    expect(state.reads).toBe(4);
  });

  it('revalidation reads each held target of a batch by its id, and replaces what changed', async () => {
    const { store, state } = fakeStore();
    const cache = new TargetCache({ store, maxEntries: 10, metrics, logger });
    for (const id of ['tg_a', 'tg_b', 'tg_c']) await cache.find(id);
    state.enabled = false;
    await cache.revalidate(['tg_a', 'tg_b', 'tg_c', 'tg_not_held']);
    // three reads to fill the cache, then one per held target: the id not held is not read
    expect(state.reads).toBe(6);
    for (const id of ['tg_a', 'tg_b', 'tg_c']) expect((await cache.find(id))?.enabled).toBe(false);
  });
});
