import type { StoredPayloadV1 } from '@relay/contracts';
import type { FlushStats } from '../driver';
import type { FlushClock } from '../storage/internal';
import type { Fold } from './flood';
import type { EventGroup } from './hold';

/** What one flush writes: the pipeline's batch, handed to a driver's flush writer. */
export interface FlushBatch<T> {
  events: EventGroup<T>[];
  folds: Fold[];
  /** accepted events' payloads, kept with their rows' hour for resends */
  payloads?: StoredPayloadV1[];
}

/**
 * A driver's writing side under the pipeline (ActivityPipeline): writes a flush, and, for a
 * driver that holds index entries back across flushes (FerretDB), what is held.
 */
export interface ActivityWriter {
  /** `clock`: when the flush happens and its number (held index entries wait by it); now and 0 when absent */
  write(batch: FlushBatch<unknown>, clock?: FlushClock): Promise<FlushStats>;
  /**
   * The first flush whose index entries (of the scopes of one activity partition, when given)
   * are still held (not in any page yet), or null. The messages of that flush and later ones
   * (of that partition) are not acknowledged yet (IndexWriter).
   */
  heldSince(partition?: number): number | null;
  /**
   * Writes the index pages held back (idle, shutdown), or with `clock.partition` those of one
   * activity partition (giving it away: no other count is recorded then than a flush records).
   */
  writeHeld(clock: FlushClock): Promise<void>;
  /** after a failed write: forget cached index state, the store is the truth again */
  reset(): void;
  /**
   * another writer may have written the accounts of this activity partition, which this one
   * writes from now on: forget what it knows of the store about them (IndexWriter.resync)
   */
  resync(now: number, partition: number): void;
  /** page counts probed in the store so far (IndexWriter.probes) */
  probes(): number;
}
