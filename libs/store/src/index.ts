export { connectStore } from './store';
export type { ActivityDoc, ApiKeyDoc, Store } from './store';
export { API_KEY_ROLES, AUDIT_ACTIONS, BREAKER_STATES, ENDPOINT_AUDIT_ACTIONS } from './records';
export type {
  AccountRecord,
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
export { toActivity } from './mappers';
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
export type { StoredPlan, TargetRoute } from './endpoints';
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
export { STATEMENTS_PER_COMMAND, keyedCollection, mapLimit } from './keyed-collection';
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
