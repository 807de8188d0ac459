/**
 * Redis keys of one target's limits and breaker. They share the hash tag `{<target id>}`, so a
 * script that touches several of them runs on one slot of a Redis Cluster (libs/cache redis.ts).
 *
 * - `${ns}:tgate:{tg}:breaker` — hash: the breaker's state and failure window (scripts.ts)
 * - `${ns}:tgate:{tg}:rate` — sorted set: the rate log, one entry per send in the last window
 * - `${ns}:tgate:{tg}:flight` — sorted set: in-flight leases, scored by when they expire
 * - `${ns}:tgate:{tg}:probe` — string: the half-open breaker's probe lock (the prober's lease)
 */
export function gateKeys(
  namespace: string,
  targetId: string,
): { breaker: string; rate: string; flight: string; probe: string } {
  const base = `${namespace}:tgate:{${targetId}}`;
  return { breaker: `${base}:breaker`, rate: `${base}:rate`, flight: `${base}:flight`, probe: `${base}:probe` };
}
