/** One thing to start and how to stop it once it has started. */
export type Start<T> = readonly [started: Promise<T>, stop: (value: T) => unknown];

/**
 * Starts servers (a stack, a broker, a deliverer) at once and answers them in order. When one
 * fails, the others that started are stopped before its error is thrown: a failed `beforeAll`
 * leaves no process behind, and `afterAll` need not know what did start.
 */
export async function startTogether<T extends unknown[]>(...starts: { [K in keyof T]: Start<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(starts.map(([started]) => started));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (!failed) return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as T;
  await Promise.allSettled(
    settled.map(async (s, i) => {
      if (s.status === 'fulfilled') await starts[i]![1](s.value as never);
    }),
  );
  throw failed.reason;
}
