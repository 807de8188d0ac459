export interface BatcherOptions {
  /** a batch is published as soon as it holds this many items */
  maxItems: number;
  /** how long the first item of a batch waits for company */
  lingerMs: number;
}

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * Gathers items added close together into one publish: the first item starts a `lingerMs`
 * timer, `maxItems` publishes at once. Each `add` settles with the publish that carried its
 * item, so a caller that waits for its confirm still waits for exactly that.
 */
export class PublishBatcher<T> {
  private items: T[] = [];
  private waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  private publishing = 0;

  constructor(
    private readonly publish: (items: T[]) => Promise<void>,
    private readonly opts: BatcherOptions,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.items.push(item);
      this.waiters.push({ resolve, reject });
      if (this.items.length >= this.opts.maxItems) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.opts.lingerMs);
    });
  }

  /** Items added and not yet settled: waiting for their batch, or published and unconfirmed. */
  get pending(): number {
    return this.items.length + this.publishing;
  }

  /** Publishes what is gathered now (shutdown, or a full batch). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const { items, waiters } = this;
    if (items.length === 0) return;
    this.items = [];
    this.waiters = [];
    this.publishing += items.length;
    let published: Promise<void>;
    try {
      published = this.publish(items);
    } catch (err) {
      published = Promise.reject(err);
    }
    published
      .then(
        () => waiters.forEach((w) => w.resolve()),
        (err: unknown) => waiters.forEach((w) => w.reject(err)),
      )
      .finally(() => (this.publishing -= items.length));
  }
}
