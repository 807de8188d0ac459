import { PassThrough } from 'node:stream';
import { newId } from '@relay/contracts';
import { createLogger } from '@relay/logging';
import { EndpointLookupUnavailableError } from '../domain/endpoint-view';
import type { EndpointView } from '../domain/endpoint-view';
import { view } from '../domain/pipeline/test-helpers';
import type { CacheMetrics, ChangeFeed } from '@relay/cache';
import { EndpointCache } from './endpoint-cache';
import type { EndpointLoader } from './endpoint-loader';

/** A store stand-in: knows some endpoints (with their plan), counts reads, and can fail or hang. */
function fakeStore(known: string[]) {
  const ids = new Set(known);
  const state = {
    reads: 0,
    batches: 0,
    planReads: 0,
    plan: { payload_limit_bytes: 1024, monthly_accepted_events: 10 },
    mode: 'up' as 'up' | 'failing' | 'hanging',
  };
  const one = (id: string): EndpointView | null => (ids.has(id) ? { ...view({ id }), plan: state.plan } : null);
  const load = async (id: string): Promise<EndpointView | null> => {
    state.reads += 1;
    if (state.mode === 'failing') throw new Error('store down');
    if (state.mode === 'hanging') return new Promise(() => undefined);
    return one(id);
  };
  const loader: EndpointLoader = {
    load,
    async loadMany(endpointIds) {
      state.batches += 1;
      if (state.mode !== 'up') throw new Error('store down');
      return new Map(endpointIds.map((id) => [id, one(id)]));
    },
    async reloadPlan() {
      state.planReads += 1;
      return state.plan;
    },
    forgetPlan: () => undefined,
  };
  return { load, loader, ids, state };
}

/** A feed stand-in for the unit tier: the real ChangeFeed is tested on the real Redis (test/integration/caches). */
function fakeFeed(live: { value: boolean }) {
  const resyncs: (() => void)[] = [];
  const feed = {
    isLive: () => live.value,
    onChange: () => undefined,
    onResync: (h: () => void) => resyncs.push(h),
  } as unknown as ChangeFeed;
  return { feed, resync: () => resyncs.forEach((h) => h()) };
}

const noMetrics: CacheMetrics = { storeRead: () => undefined, resync: () => undefined, watchSize: () => undefined };

function cache(
  load: (id: string) => Promise<EndpointView | null>,
  clock: { ms: number },
  over: { maxEntries?: number; staleIfErrorMs?: number; loader?: EndpointLoader } = {},
) {
  const failures: string[] = [];
  const c = new EndpointCache({
    loader: over.loader ?? {
      load,
      loadMany: async () => new Map(),
      reloadPlan: async () => ({ payload_limit_bytes: 1024, monthly_accepted_events: 0 }),
      forgetPlan: () => undefined,
    },
    maxEntries: over.maxEntries ?? 100,
    staleIfErrorMs: over.staleIfErrorMs ?? 60000,
    loadTimeoutMs: 50,
    logger: createLogger({ service: 'test', level: 'error', stream: new PassThrough() }),
    onLookupFailure: (served) => failures.push(served),
    now: () => clock.ms,
  });
  return { c, failures };
}

describe('endpoint cache: bounded, and no store read for ids that cannot be endpoints', () => {
  it('refuses ids not shaped like an endpoint id (an 8 KB id, random text) without a store read', async () => {
    const store = fakeStore([]);
    const { c } = cache(store.load, { ms: 0 });
    for (const id of ['x'.repeat(8192), 'ep_unknown', '../../etc', 'ep_0123456789ABCDEFGHJK'])
      expect(await c.get(id)).toBeNull();
    expect(store.state.reads).toBe(0);
    expect(c.size).toEqual({ known: 0, unknown: 0 });
  });

  it('a flood of 20,000 distinct random endpoint-shaped ids keeps at most maxEntries unknown ids', async () => {
    const store = fakeStore([]);
    const { c } = cache(store.load, { ms: 0 }, { maxEntries: 500 });
    for (let i = 0; i < 20000; i++) await c.get(newId('ep'));
    expect(c.size.unknown).toBe(500);
  });

  it('an unknown id asked again within a second costs no second read', async () => {
    const store = fakeStore([]);
    const clock = { ms: 0 };
    const { c } = cache(store.load, clock);
    const id = newId('ep');
    await c.get(id);
    clock.ms = 999;
    await c.get(id);
    expect(store.state.reads).toBe(1);
    clock.ms = 1000;
    await c.get(id);
    expect(store.state.reads).toBe(2);
  });

  it('100,000 distinct endpoints, then 100,000 distinct unknown ids: each LRU stays within maxEntries', async () => {
    const known = new Set<string>();
    const { c } = cache(async (id) => (known.has(id) ? view({ id }) : null), { ms: 0 }, { maxEntries: 1000 });
    for (let i = 0; i < 100_000; i++) {
      const id = newId('ep');
      known.add(id);
      await c.get(id);
    }
    for (let i = 0; i < 100_000; i++) await c.get(newId('ep'));
    expect(c.size).toEqual({ known: 1000, unknown: 1000 });
  });

  it('keeps at most maxEntries endpoints, the least recently used dropped first', async () => {
    const ids = Array.from({ length: 5 }, () => newId('ep'));
    const store = fakeStore(ids);
    const { c } = cache(store.load, { ms: 0 }, { maxEntries: 3 });
    for (const id of ids) await c.get(id);
    expect(c.size.known).toBe(3);
    const reads = store.state.reads;
    await c.get(ids[4]!);
    expect(store.state.reads).toBe(reads);
    await c.get(ids[0]!);
    expect(store.state.reads).toBe(reads + 1);
  });

  it('concurrent requests for one id share one read', async () => {
    const store = fakeStore([]);
    const { c } = cache(store.load, { ms: 0 });
    const id = newId('ep');
    await Promise.all(Array.from({ length: 50 }, () => c.get(id)));
    expect(store.state.reads).toBe(1);
  });
});

describe('endpoint cache during a store outage: stale-if-error, bounded, else a fast 503', () => {
  it('changes not heard and the store failing: a known endpoint is served up to staleIfErrorMs since its last read, then 503', async () => {
    const id = newId('ep');
    const store = fakeStore([id]);
    const clock = { ms: 0 };
    const { c, failures } = cache(store.load, clock, { staleIfErrorMs: 10000 });
    await c.get(id);
    store.state.mode = 'failing';
    clock.ms = 10000;
    expect((await c.get(id))?.endpoint.id).toBe(id);
    clock.ms = 10001;
    await expect(c.get(id)).rejects.toBeInstanceOf(EndpointLookupUnavailableError);
    expect(failures).toEqual(['unavailable']);
  });

  it('an endpoint never read fails with EndpointLookupUnavailableError, and a hanging store is given up on after loadTimeoutMs', async () => {
    const store = fakeStore([]);
    store.state.mode = 'hanging';
    const { c } = cache(store.load, { ms: 0 });
    await expect(c.get(newId('ep'))).rejects.toBeInstanceOf(EndpointLookupUnavailableError);
  });

  it('after a failure the store is not asked for a second, then by one read at a time until it answers', async () => {
    const store = fakeStore([]);
    const clock = { ms: 0 };
    const { c } = cache(store.load, clock);
    store.state.mode = 'failing';
    await expect(c.get(newId('ep'))).rejects.toThrow();
    for (let i = 0; i < 100; i++)
      await expect(c.get(newId('ep'))).rejects.toBeInstanceOf(EndpointLookupUnavailableError);
    expect(store.state.reads).toBe(1);
    clock.ms = 1000;
    store.state.mode = 'hanging';
    const probe = c.get(newId('ep'));
    await expect(c.get(newId('ep'))).rejects.toBeInstanceOf(EndpointLookupUnavailableError);
    await expect(probe).rejects.toBeInstanceOf(EndpointLookupUnavailableError);
    expect(store.state.reads).toBe(2);
    clock.ms = 2100;
    store.state.mode = 'up';
    expect(await c.get(newId('ep'))).toBeNull();
    expect(await c.get(newId('ep'))).toBeNull();
    expect(store.state.reads).toBe(4);
  });

  it('an eviction announced while a read is in flight is not undone by that read', async () => {
    const id = newId('ep');
    let release: (v: EndpointView | null) => void = () => undefined;
    let reads = 0;
    const { c } = cache(
      async () => {
        reads += 1;
        return reads === 1 ? new Promise((r) => (release = r)) : view({ id, enabled: false });
      },
      { ms: 0 },
    );
    const first = c.get(id);
    c.invalidate(id);
    release(view({ id }));
    await first;
    expect((await c.get(id))?.endpoint.enabled).toBe(false);
  });
});

describe('endpoint cache told, not timed (docs/architecture.md "Caches of settings")', () => {
  function followed(ids: string[], clock: { ms: number }) {
    const store = fakeStore(ids);
    const live = { value: true };
    const { c } = cache(store.load, clock, { staleIfErrorMs: 10000, loader: store.loader });
    const feed = fakeFeed(live);
    c.follow(feed.feed, { batchSize: 2, pauseMs: 0 }, noMetrics);
    return { c, store, live, resync: feed.resync };
  }

  it('while changes are heard an endpoint is kept without a read, however long ago it was read', async () => {
    const id = newId('ep');
    const clock = { ms: 0 };
    const { c, store } = followed([id], clock);
    await c.get(id);
    clock.ms = 3_600_000;
    await c.get(id);
    expect(store.state.reads).toBe(1);
  });

  it('an endpoint or target announcement drops the endpoint; the next request reads it once', async () => {
    const [a, b] = [newId('ep'), newId('ep')];
    const { c, store } = followed([a, b], { ms: 0 });
    await c.get(a);
    await c.get(b);
    await c.told({ scope: 'endpoint', id: a });
    await c.told({ scope: 'target', id: newId('tg'), endpoint_id: b });
    await Promise.all([c.get(a), c.get(a), c.get(b)]);
    expect(store.state.reads).toBe(4);
  });

  it('an account announcement replaces the plan of its cached endpoints with one read, no endpoint read', async () => {
    const ids = [newId('ep'), newId('ep'), newId('ep')];
    const { c, store } = followed(ids, { ms: 0 });
    for (const id of ids) await c.get(id);
    store.state.plan = { payload_limit_bytes: 2048, monthly_accepted_events: 99 };
    await c.told({ scope: 'account', id: 'acc_other' });
    expect(store.state.planReads).toBe(0);
    await c.told({ scope: 'account', id: 'acc_1' });
    for (const id of ids)
      expect((await c.get(id))?.plan).toEqual({ payload_limit_bytes: 2048, monthly_accepted_events: 99 });
    expect([store.state.reads, store.state.planReads]).toEqual([3, 1]);
  });

  it('a revalidation pass reads what is held in batches, replaces the changed and drops the deleted', async () => {
    const ids = Array.from({ length: 5 }, () => newId('ep'));
    const { c, store } = followed(ids, { ms: 0 });
    for (const id of ids) await c.get(id);
    store.ids.delete(ids[0]!);
    store.state.plan = { payload_limit_bytes: 4096, monthly_accepted_events: 1 };
    await c.revalidate(ids.slice(0, 2));
    await c.revalidate(ids.slice(2));
    expect(c.size.known).toBe(4);
    expect((await c.get(ids[4]!))?.plan.payload_limit_bytes).toBe(4096);
    expect([store.state.reads, store.state.batches]).toEqual([5, 2]);
  });

  it('a resync from the feed revalidates everything held, batchSize ids per read, one batch at a time', async () => {
    const ids = Array.from({ length: 5 }, () => newId('ep'));
    const { c, store, resync } = followed(ids, { ms: 0 });
    for (const id of ids) await c.get(id);
    resync();
    resync();
    // bounded: a pass over 5 ids in batches of 2 is 3 reads; the second request folds into one more pass
    for (let i = 0; i < 100 && store.state.batches < 6; i++) await new Promise((r) => setTimeout(r, 5));
    expect(store.state.batches).toBe(6);
    expect(c.size.known).toBe(5);
  });
});
