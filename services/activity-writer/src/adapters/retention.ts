import type { Logger } from '@relay/logging';
import type { ActivityLogWriter } from '@relay/activity-log';

/**
 * Drops expired activity partitions every `intervalMs`, between flushes (never while one writes
 * into a partition being dropped).
 */
export function startRetention(
  writer: Pick<ActivityLogWriter, 'expire'>,
  opts: { retentionMs: number; intervalMs: number; logger: Logger; onDropped(partitions: number): void },
): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    writer
      .expire(Date.now(), opts.retentionMs)
      .then((dropped) => {
        if (dropped.length > 0)
          opts.logger.info('activity retention dropped expired partitions', { partitions: dropped });
        opts.onDropped(dropped.length);
      })
      .catch((err: Error) =>
        opts.logger.warn('activity retention sweep failed; retried next interval', { error: err.message }),
      )
      .finally(() => (running = false));
  }, opts.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
