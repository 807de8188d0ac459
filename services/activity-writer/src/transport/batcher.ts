/**
 * Collects items until `size` are waiting or the oldest waited `maxWaitMs`, then flushes
 * them together. Each `add` resolves or rejects with its batch, so the consumer acks a
 * message only after the bulk write that contains it succeeded. One flush runs at a time
 * (a batch that fills meanwhile waits), so one writer never races itself on a row.
 */
export class Batcher<T> {
  private items: { item: T; resolve: () => void; reject: (err: Error) => void }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly size: number,
    private readonly maxWaitMs: number,
    private readonly flushFn: (items: T[]) => Promise<void>,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.items.push({ item, resolve, reject });
      if (this.items.length >= this.size) this.flush();
      else if (!this.timer) this.timer = setTimeout(() => this.flush(), this.maxWaitMs);
    });
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.items;
    this.items = [];
    if (batch.length === 0) return;
    this.flushing = this.flushing.then(() =>
      this.flushFn(batch.map((b) => b.item)).then(
        () => batch.forEach((b) => b.resolve()),
        (err: Error) => batch.forEach((b) => b.reject(err)),
      ),
    );
  }
}
