import type { KeyedCollection } from '@relay/store';

/**
 * Pages of one scope and hour are numbered 0, 1, 2 … with no document that counts them (a
 * counter would be an update per flush; FerretDB's updates cost 100+ ms). The count is found by
 * probing `_id`s: doubling until a page is missing, then halving back — about 2·log2(n) reads.
 */
export async function countPages(
  coll: KeyedCollection<{ _id: string }>,
  idOf: (n: number) => string,
  atLeast = 0,
): Promise<number> {
  if (atLeast === 0 && !(await coll.get(idOf(0)))) return 0;
  let present = Math.max(0, atLeast - 1);
  let step = 1;
  while (await coll.get(idOf(present + step))) {
    present += step;
    step *= 2;
  }
  // pages 0..present exist, present+step does not: search between
  let missing = present + step;
  while (missing - present > 1) {
    const mid = Math.floor((present + missing) / 2);
    if (await coll.get(idOf(mid))) present = mid;
    else missing = mid;
  }
  return present + 1;
}

/** Page counts seen before (bounded). Pages are never removed but by dropping their partition. */
const SEEN_MAX = 20_000;

/**
 * Counts remembered between calls: a remembered count c is confirmed with one read (page c is
 * still missing) instead of a full probe, and pages added since are found from c on.
 */
export class PageCounts {
  private readonly seen = new Map<string, number>();

  /** The count remembered for `key`, unconfirmed (pages may have followed it). */
  known(key: string): number | undefined {
    return this.seen.get(key);
  }

  async count(key: string, coll: KeyedCollection<{ _id: string }>, idOf: (n: number) => string): Promise<number> {
    const known = this.seen.get(key);
    const n = known !== undefined && !(await coll.get(idOf(known))) ? known : await countPages(coll, idOf, known ?? 0);
    if (this.seen.size >= SEEN_MAX && !this.seen.has(key)) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(key, n);
    return n;
  }
}
