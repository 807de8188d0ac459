import { DAY_MS, dayOf, hourOf } from './keys';
import type { LogCollections, MergeableRow } from './log';

export interface SweepResult {
  /** collections dropped */
  dropped: string[];
}

/**
 * Drops the partitions older than `retentionMs`: hourly rows and index collections whose hour
 * ended before the cut, and day directories whose day did. Rows live between `retentionMs` and
 * `retentionMs` + 1 hour. The cost is one metadata read plus one drop per expired partition,
 * whatever is kept.
 */
export async function sweepExpired(
  log: LogCollections<MergeableRow>,
  now: number,
  retentionMs: number,
): Promise<SweepResult> {
  const cutHour = hourOf(now - retentionMs); // hours strictly before this one expire
  const cutDay = dayOf(now - retentionMs - DAY_MS); // a directory outlives its last hour by a day
  const dropped: string[] = [];
  for (const p of await log.partitions()) {
    if (p.kind === 'dir' ? p.key < cutDay : p.key < cutHour) {
      await log.drop(p.name);
      dropped.push(p.name);
    }
  }
  return { dropped };
}
