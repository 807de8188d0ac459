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
export { ActivityLog, GROUP_SCOPES, IndexWriter, PageCounts, accountScope, decodePosition, encodePosition, endpointScope, groupScope, hourOf, lateAttemptId, listIndexed, mapLimit, mergeAttempts, scopesOfRow, sweepExpired } from './activity';
export type { GroupScope, IndexChange, IndexEntry, KeyedCollection, LateAttemptDoc, ListQuery, Position, Scope, ScopedChange, ScopedEntry, StoredAttempt } from './activity';
