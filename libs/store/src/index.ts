export { connectStore } from './store';
export type { ActivityDoc, ApiKeyDoc, Doc, Store } from './store';
export { INBOUND_AUTH_TYPES, STATUS_GROUPS } from './records';
export type {
  AccountRecord,
  ActivityRecord,
  DeliveryAttemptRecord,
  DeliveryRecord,
  EndpointRecord,
  InboundAuth,
  InboundAuthType,
  PlanLimits,
  StatusGroup,
  TargetRecord,
} from './records';
export { toAccount, toActivity, toEndpoint, toTarget } from './mappers';
