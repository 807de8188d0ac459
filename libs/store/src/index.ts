export { connectStore } from './store';
export type { ActivityDoc, ApiKeyDoc, Doc, Store } from './store';
export {
  ACCOUNT_AUDIT_ACTIONS,
  API_KEY_ROLES,
  AUDIT_ACTIONS,
  BREAKER_STATES,
  CONFIG_AUDIT_ACTIONS,
  ENDPOINT_AUDIT_ACTIONS,
  STATUS_GROUPS,
} from './records';
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
export {
  deleteEndpointTarget,
  enabledTargetsOf,
  findEndpointTarget,
  findTarget,
  findTargets,
  flagTarget,
  insertTarget,
  isAccountTarget,
  replaceTargetConfig,
  routedTargetIds,
  setTargetFields,
  storeBreakerState,
  targetConfigsPage,
  targetNames,
  targetsOfEndpoint,
} from './targets';
export type { NewTargetRecord } from './targets';
export {
  accountPlan,
  accountPlans,
  deleteEndpointAndTargets,
  enabledTargetRoutes,
  endpointPayloadFormat,
  endpointsOfAccount,
  findAccountEndpoint,
  findEndpoint,
  findEndpoints,
  insertEndpoint,
  isAccountEndpoint,
  setEndpointControl,
  updateEndpointAt,
} from './endpoints';
export type { NewEndpointRecord, StoredPlan, TargetRoute } from './endpoints';
export { accountExists, findAccount, insertAccount, setPlanLimits } from './accounts';
export {
  apiKeyByDigest,
  apiKeyRolesOf,
  apiKeysOfAccount,
  deleteAccountApiKey,
  findAccountApiKey,
  insertApiKey,
  touchApiKey,
} from './api-keys';
export { appendAudit, auditRows } from './audit';
export { keyedCollection, mapLimit } from './keyed-collection';
export type { KeyedCollection } from './keyed-collection';
export {
  clearTransformation,
  deleteTransformations,
  MAX_TRANSFORMATION_VERSIONS,
  saveTransformationVersion,
  transformationHeads,
  transformationVersion,
  transformationVersions,
} from './transformations';
export type { TransformationHead, TransformationScope, TransformationVersionRecord } from './transformations';
