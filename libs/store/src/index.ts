export { connectStore } from './store';
export type { ActivityDoc, ApiKeyDoc, Doc, Store } from './store';
export { ACCOUNT_AUDIT_ACTIONS, API_KEY_ROLES, AUDIT_ACTIONS, BREAKER_STATES, CONFIG_AUDIT_ACTIONS, ENDPOINT_AUDIT_ACTIONS, STATUS_GROUPS } from './records';
export type {
  AccountRecord,
  ActivityAggregate,
  ActivityRecord,
  ApiKeyRole,
  DeliveryAttemptRecord,
  DeliveryRecord,
  EndpointRecord,
  AuditRecord,
  BreakerStateName,
  BreakerStateRecord,
  PlanLimits,
  StatusGroup,
  TargetRecord,
} from './records';
export { toAccount, toActivity, toEndpoint, toTarget } from './mappers';
export { enabledTargetsOf, findEndpointTarget, findTarget, findTargets, flagTarget, isAccountTarget, routedTargetIds, targetNames, targetsOfEndpoint } from './targets';
export { accountPlan, accountPlans, enabledTargetRoutes, findEndpoint, findEndpoints } from './endpoints';
export type { StoredPlan, TargetRoute } from './endpoints';
export { keyedCollection, mapLimit } from './keyed-collection';
export type { KeyedCollection } from './keyed-collection';
