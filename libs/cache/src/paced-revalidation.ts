import type { Logger } from '@relay/logging';

interface PacedRevalidationOptions {
  /** the keys held now */
  keys(): string[];
  /** reads one batch from the store and replaces (or drops) those entries */
  revalidate(keys: string[]): Promise<void>;
  /** keys per store read (CACHE_REVALIDATE_BATCH) */
  batchSize: number;
  /** pause between two batches, so a pass never takes the store's whole attention */
  pauseMs: number;
  logger: Logger;
  /** a pass ended: how many keys it read and in how long */
  onPass?(keys: number, ms: number): void;
}

/**
 * Revalidates every entry a cache holds after announcements may have been missed, without the
 * burst that dropping the cache would cause (every held entry missed at once, each its own
 * read): one batch at a time, `batchSize` keys per read, `pauseMs` between batches. Requests
 * made while a pass runs are folded into one more pass after it.
 */
export class PacedRevalidation {
  private running = false;
  private again = false;

  constructor(private readonly opts: PacedRevalidationOptions) {}

  request(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.run();
  }

  private async run(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.pass();
      } while (this.again);
    } finally {
      this.running = false;
    }
  }

  private async pass(): Promise<void> {
    const started = Date.now();
    const keys = this.opts.keys();
    for (let i = 0; i < keys.length; i += this.opts.batchSize) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, this.opts.pauseMs));
      try {
        await this.opts.revalidate(keys.slice(i, i + this.opts.batchSize));
      } catch (err) {
        // the entries stay as they are (the caller decides how long an unverified entry is served)
        this.opts.logger.warn('cache revalidation read failed; retried with the next pass', {
          error: (err as Error).message,
        });
        return;
      }
    }
    this.opts.onPass?.(keys.length, Date.now() - started);
  }
}
