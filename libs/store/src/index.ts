export { connectStore } from './store';
export type { ActivityDoc, ApiKeyDoc, Doc, Store } from './store';
export { STATUS_GROUPS } from './records';
export type {
  AccountRecord,
  ActivityAggregate,
  ActivityRecord,
  DeliveryAttemptRecord,
  DeliveryRecord,
  EndpointRecord,
  AuditRecord,
  PlanLimits,
  StatusGroup,
  TargetRecord,
} from './records';
export { toAccount, toActivity, toEndpoint, toTarget } from './mappers';
export { ActivityLog, IndexWriter, PageCounts, accountScope, decodePosition, encodePosition, endpointScope, hourOf, lateAttemptId, listIndexed, mapLimit, mergeAttempts, sweepExpired } from './activity';
export type { IndexChange, IndexEntry, KeyedCollection, LateAttemptDoc, ListQuery, Position, Scope, ScopedChange, ScopedEntry, StoredAttempt } from './activity';
