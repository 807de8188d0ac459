export { brokerNames, DELIVERY_CHANNELS } from './names';
export type { BrokerNames, DeliveryChannel } from './names';
export { DELIVERY_STATES, OUTCOMES } from './outcomes';
export type { DeliveryState, Outcome } from './outcomes';
export { ACTIVITY_ATTEMPT_V1, ACTIVITY_REQUEST_V1, DELIVERY_V1 } from './messages';
export type { ActivityAttemptV1, ActivityMessage, ActivityRequestV1, DeliveryMessageV1, DeliveryPayload, ForwardableRequest, RelayMessage } from './messages';
export { ContractError, decodeMessage, encodeMessage } from './codec';
export type { MessageType } from './codec';
export { deliveryIdFor, newId } from './ids';
