/**
 * Serializes the read-check-write of one endpoint within this process. The conditional updates
 * in adapters/endpoint-store are not enough on FerretDB (the MongoDB-wire server Relay runs on):
 * it evaluates an update's filter and applies it in two steps, so N concurrent `updateOne`s
 * with `{ paused: { $ne: true } }` all report a modification (measured with FerretDB 1.24).
 * Across processes every write also claims its revision first (`store.claimRevision`, a
 * unique-`_id` insert FerretDB does make exclusive), so the loser of a race between two
 * processes answers 409 instead of interleaving (docs/management-api.md "Concurrency"). Within
 * one process this lock runs such requests one after the other, so they need no 409 at all.
 */
export type EndpointLock = <T>(endpointId: string, fn: () => Promise<T>) => Promise<T>;

export function createEndpointLock(): EndpointLock {
  const tails = new Map<string, Promise<void>>();
  return async (endpointId, fn) => {
    const run = (tails.get(endpointId) ?? Promise.resolve()).then(fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    tails.set(endpointId, tail);
    try {
      return await run;
    } finally {
      if (tails.get(endpointId) === tail) tails.delete(endpointId);
    }
  };
}
