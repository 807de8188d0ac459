import type { Logger } from '@relay/logging';
import { sweepExpired } from '@relay/store';
import type { Store } from '@relay/store';

/**
 * Deletes expired activity rows every `intervalMs`, between flushes (never concurrently with
 * one: both touch the same index documents). Each sweep handles at most a day of hours, so a
 * writer that was down for a while catches up in steps without a long pause.
 */
export function startRetention(
  store: Store,
  pipeline: { exclusive<R>(fn: () => Promise<R>): Promise<R> },
  opts: { retentionMs: number; intervalMs: number; logger: Logger; onDeleted(rows: number): void },
): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    pipeline
      .exclusive(() => sweepExpired(store.activityIndex, store.activityRows, Date.now(), opts.retentionMs))
      .then((r) => {
        if (r.hours > 0) opts.logger.info('activity retention swept', { hours: r.hours, rows: r.rows, index_docs: r.index_docs, kept_from: r.cursor });
        opts.onDeleted(r.rows);
      })
      .catch((err: Error) => opts.logger.warn('activity retention sweep failed; retried next interval', { error: err.message }))
      .finally(() => (running = false));
  }, opts.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
