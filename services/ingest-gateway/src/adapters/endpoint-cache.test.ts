import { PassThrough } from 'node:stream';
import { newId } from '@relay/contracts';
import { createLogger } from '@relay/logging';
import { EndpointLookupUnavailableError } from '../domain/endpoint-view';
import type { EndpointView } from '../domain/endpoint-view';
import { view } from '../domain/pipeline/test-helpers';
import { EndpointCache } from './endpoint-cache';

/** A store stand-in: knows some endpoints, counts reads, and can fail or hang. */
function fakeStore(known: string[]) {
  const ids = new Set(known);
  const state = { reads: 0, mode: 'up' as 'up' | 'failing' | 'hanging' };
  const load = async (id: string): Promise<EndpointView | null> => {
    state.reads += 1;
    if (state.mode === 'failing') throw new Error('store down');
    if (state.mode === 'hanging') return new Promise(() => undefined);
    return ids.has(id) ? view({ id }) : null;
  };
  return { load, state };
}

function cache(load: (id: string) => Promise<EndpointView | null>, clock: { ms: number }, over: { maxEntries?: number; staleIfErrorMs?: number } = {}) {
  const failures: string[] = [];
  const c = new EndpointCache({
    load,
    ttlMs: 5000,
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
    for (const id of ['x'.repeat(8192), 'ep_unknown', '../../etc', 'ep_0123456789ABCDEFGHJK']) expect(await c.get(id)).toBeNull();
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
  it('serves a known endpoint past its TTL while the store fails, up to staleIfErrorMs past it', async () => {
    const id = newId('ep');
    const store = fakeStore([id]);
    const clock = { ms: 0 };
    const { c, failures } = cache(store.load, clock, { staleIfErrorMs: 10000 });
    await c.get(id);
    store.state.mode = 'failing';
    clock.ms = 5000 + 10000;
    expect((await c.get(id))?.endpoint.id).toBe(id);
    clock.ms = 5000 + 10001;
    await expect(c.get(id)).rejects.toBeInstanceOf(EndpointLookupUnavailableError);
    expect(failures).toEqual(['stale', 'unavailable']);
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
    for (let i = 0; i < 100; i++) await expect(c.get(newId('ep'))).rejects.toBeInstanceOf(EndpointLookupUnavailableError);
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
    const { c } = cache(async () => {
      reads += 1;
      return reads === 1 ? new Promise((r) => (release = r)) : view({ id, enabled: false });
    }, { ms: 0 });
    const first = c.get(id);
    c.invalidate(id);
    release(view({ id }));
    await first;
    expect((await c.get(id))?.endpoint.enabled).toBe(false);
  });
});
