export { connectStore } from './store';
export type { ActivityDoc, ApiKeyDoc, Doc, Store } from './store';
export { ACCOUNT_AUDIT_ACTIONS, API_KEY_ROLES, AUDIT_ACTIONS, CONFIG_AUDIT_ACTIONS, ENDPOINT_AUDIT_ACTIONS, STATUS_GROUPS } from './records';
export type {
  AccountRecord,
  ActivityAggregate,
  ActivityRecord,
  ApiKeyRole,
  DeliveryAttemptRecord,
  DeliveryRecord,
  EndpointRecord,
  AuditRecord,
  PlanLimits,
  StatusGroup,
  TargetRecord,
} from './records';
export { toAccount, toActivity, toEndpoint, toTarget } from './mappers';
export { ActivityLog, currentDeliveries, decodeRow, deliveryState, payloadId, GROUP_SCOPES, IP_BUCKETS, IndexWriter, PageCounts, accountScope, ipScope, decodePosition, encodePosition, endpointScope, groupScope, hourOf, lateAttemptId, listIndexed, mapLimit, mergeAttempts, scopesOfRow, sweepExpired, keyedCollection } from './activity';
export type { GroupScope, IndexChange, IndexEntry, KeyedCollection, LateAttemptDoc, PayloadDoc, StoredPayload, ListQuery, ListResult, Position, Scope, FlushClock, IndexWriterOptions, ScopedChange, ScopedEntry, StoredAttempt } from './activity';
