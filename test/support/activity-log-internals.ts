import type { ActivityDoc, Store } from '@relay/store';
import { LogCollections } from '../../libs/activity-log/src/storage/internal';

/**
 * The activity log's insides (@relay/activity-log keeps them to itself), for the tests that check
 * its layout on the real store: index pages, page counts, partitions. Everything else uses the
 * library's surface (openActivityLog).
 */
export * from '../../libs/activity-log/src/storage/internal';
export { createActivityWriter } from '../../libs/activity-log/src/writing/flush';
export type { ActivityWriter } from '../../libs/activity-log/src/writing/flusher';
export type { FlushStats } from '../../libs/activity-log/src/driver';
export { ActivityPipeline } from '../../libs/activity-log/src/writing/pipeline';
export type { PipelineOptions } from '../../libs/activity-log/src/writing/pipeline';

const opened = new WeakMap<Store, LogCollections<ActivityDoc>>();

/** The log's collections on a test's store (one handle per store). */
export function collectionsOf(store: Store): LogCollections<ActivityDoc> {
  let c = opened.get(store);
  if (!c) {
    c = new LogCollections<ActivityDoc>(store.connection);
    opened.set(store, c);
  }
  return c;
}
