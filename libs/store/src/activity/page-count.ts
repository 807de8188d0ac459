import type { KeyedCollection } from './keyed-collection';

/**
 * Pages of one scope and hour are numbered 0, 1, 2 … with no document that counts them (a
 * counter would be an update per flush; FerretDB's updates cost 100+ ms). The count is found by
 * probing `_id`s: doubling until a page is missing, then halving back — about 2·log2(n) reads.
 */
export async function countPages(coll: KeyedCollection<{ _id: string }>, idOf: (n: number) => string): Promise<number> {
  if (!(await coll.get(idOf(0)))) return 0;
  let present = 0;
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
