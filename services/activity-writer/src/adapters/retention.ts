import type { Logger } from '@relay/logging';
import { sweepExpired } from '@relay/store';
import type { Store } from '@relay/store';

/**
 * Drops expired activity partitions every `intervalMs`, between flushes (never while one writes
 * into a partition being dropped).
 */
export function startRetention(
  store: Store,
  pipeline: { exclusive<R>(fn: () => Promise<R>): Promise<R> },
  opts: { retentionMs: number; intervalMs: number; logger: Logger; onDropped(partitions: number): void },
): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    pipeline
      .exclusive(() => sweepExpired(store.activity, Date.now(), opts.retentionMs))
      .then((r) => {
        if (r.dropped.length > 0) opts.logger.info('activity retention dropped expired partitions', { partitions: r.dropped });
        opts.onDropped(r.dropped.length);
      })
      .catch((err: Error) => opts.logger.warn('activity retention sweep failed; retried next interval', { error: err.message }))
      .finally(() => (running = false));
  }, opts.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
