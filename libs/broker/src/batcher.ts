interface BatcherOptions<T = unknown> {
  /** a batch is published as soon as it holds this many items */
  maxItems: number;
  /** how long the first item of a batch waits for company (a function: asked when a batch starts) */
  lingerMs: number | (() => number);
  /** a batch is also published once its items' sizes (`sizeOf`) reach this; an item larger than it travels alone */
  maxBytes?: number;
  sizeOf?: (item: T) => number;
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
  private bytes = 0;
  private waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  private publishing = 0;

  constructor(
    private readonly publish: (items: T[]) => Promise<void>,
    private readonly opts: BatcherOptions<T>,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      const size = this.opts.maxBytes !== undefined && this.opts.sizeOf ? this.opts.sizeOf(item) : 0;
      // a batch never grows past maxBytes by this item: what is gathered goes first
      if (this.items.length > 0 && this.opts.maxBytes !== undefined && this.bytes + size > this.opts.maxBytes)
        this.flush();
      this.items.push(item);
      this.bytes += size;
      this.waiters.push({ resolve, reject });
      if (
        this.items.length >= this.opts.maxItems ||
        (this.opts.maxBytes !== undefined && this.bytes >= this.opts.maxBytes)
      )
        this.flush();
      else
        this.timer ??= setTimeout(
          () => this.flush(),
          typeof this.opts.lingerMs === 'number' ? this.opts.lingerMs : this.opts.lingerMs(),
        );
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
    this.bytes = 0;
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
