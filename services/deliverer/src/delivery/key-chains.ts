/**
 * Runs tasks one after another per key, tasks of different keys side by side (docs/ordering.md):
 * a task starts when the task queued before it under its key has settled, however it settled.
 * What it keeps is one promise per queued task and one entry per key with a task queued, so it
 * is bounded by what its caller holds (an ordered partition's prefetch window).
 */
export class KeyChains {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** keys with a task queued or running */
  get keys(): number {
    return this.tails.size;
  }

  after<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key);
    const mine = before ? before.then(task, task) : task();
    const settled = mine.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, settled);
    // the last task of a key takes the key's entry with it
    void settled.then(() => {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    });
    return mine;
  }
}
