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
export { ActivityLog, IndexWriter, PageCounts, accountScope, deliveryState, lastError, lateAttemptId, mergeAttempts, statusOf, decodePosition, encodePosition, endpointScope, hourOf, keyedCollection, listIndexed, mapLimit, sweepExpired } from './activity';
export type { IndexChange, IndexDoc, IndexEntry, KeyedCollection, LateAttemptDoc, StoredAttempt, ListQuery, ListResult, Position, Scope, ScopedChange, ScopedEntry, SweepResult } from './activity';
