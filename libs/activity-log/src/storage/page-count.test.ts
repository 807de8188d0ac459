import type { KeyedCollection } from '@relay/store';
import { PageCounts, countPages } from './page-count';

/** An in-memory collection of the narrow keyed interface, counting reads. */
function pages(n: number) {
  const ids = new Set(Array.from({ length: n }, (_, i) => `p${i}`));
  let reads = 0;
  const coll = {
    get: async (id: string) => {
      reads += 1;
      return ids.has(id) ? { _id: id } : null;
    },
  } as unknown as KeyedCollection<{ _id: string }>;
  return { coll, add: (k: number) => ids.add(`p${k}`), reads: () => reads };
}

describe('counting index pages without a counter document', () => {
  it.each([0, 1, 2, 3, 7, 8, 100, 1000])('finds %i pages with about 2·log2(n) reads', async (n) => {
    const p = pages(n);
    expect(await countPages(p.coll, (k) => `p${k}`)).toBe(n);
    expect(p.reads()).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(n + 1)) + 2);
  });

  it('confirms a remembered count with one read, and finds pages added since', async () => {
    const p = pages(300);
    const counts = new PageCounts();
    expect(await counts.count('k', p.coll, (k) => `p${k}`)).toBe(300);
    const before = p.reads();
    expect(await counts.count('k', p.coll, (k) => `p${k}`)).toBe(300);
    expect(p.reads() - before).toBe(1);
    p.add(300);
    p.add(301);
    expect(await counts.count('k', p.coll, (k) => `p${k}`)).toBe(302);
  });
});
