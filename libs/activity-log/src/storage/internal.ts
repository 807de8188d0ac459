export {
  GROUP_SCOPES,
  IP_BUCKETS,
  accountScope,
  endpointScope,
  groupScope,
  hourOf,
  ipScope,
  scopesOfRow,
} from './keys';
export type { GroupScope, Scope } from './keys';
export type { IndexChange, IndexEntry } from './entries';
export { LogCollections, decodeRow, lateAttemptId, payloadId } from './log';
export type { IndexDoc, LateAttemptDoc, PayloadDoc, StoredPayload } from './log';
export { currentDeliveries, deliveryState, lastError, mergeAttempts, nextAttemptMs, statusOf } from './status';
export type { StoredAttempt } from './status';
export { IndexWriter } from './index-writer';
export type { FlushClock, IndexWriterOptions, ScopedChange, ScopedEntry } from './index-writer';
export { listIndexed } from './index-reader';
export { PageCounts } from './page-count';
export type { ListQuery, ListResult } from './index-reader';
export { decodePosition, encodePosition } from './position';
export type { Position } from './position';
export { sweepExpired } from './retention';
export type { SweepResult } from './retention';
