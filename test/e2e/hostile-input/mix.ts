import type { Ctx, HostileCase } from './cases';
import {
  badBase64,
  deepNesting,
  hugeKeyCounts,
  invalidJson,
  overlongBody,
  protoKeys,
  xmlEntities,
} from './payload-classes';
import {
  chunkedBodies,
  contentLengthLies,
  malformedHeaders,
  oddMethods,
  oversizedHeaders,
  percentEncodingPaths,
  queryStrings,
  slowBodies,
} from './protocol-classes';

/**
 * How the run is mixed: each generator with its share of the requests (percent). Classes that
 * move megabytes (overlong bodies, 1 MB query strings, chunked bodies over the ceiling) have
 * small shares, so 10,000 requests stay within about two minutes on two cores. Stalled senders
 * are not in the mix: a fixed number of them run beside it (runner.ts).
 */
export const MIX: Array<[number, (ctx: Ctx) => HostileCase]> = [
  [13, invalidJson],
  [2, overlongBody],
  [7, deepNesting],
  [5, hugeKeyCounts],
  [11, xmlEntities],
  [10, badBase64],
  [3, queryStrings],
  [9, oversizedHeaders],
  [6, malformedHeaders],
  [10, percentEncodingPaths],
  [8, oddMethods],
  [5, contentLengthLies],
  [4, chunkedBodies],
  [1, slowBodies],
  [6, protoKeys],
];

export function pickGenerator(ctx: Ctx): (ctx: Ctx) => HostileCase {
  const total = MIX.reduce((s, [w]) => s + w, 0);
  let r = ctx.rng.next() * total;
  for (const [w, g] of MIX) {
    if ((r -= w) < 0) return g;
  }
  return MIX[MIX.length - 1]![1];
}
