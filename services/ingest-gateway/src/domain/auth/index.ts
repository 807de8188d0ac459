// Inbound authentication (spec "Authentication / Inbound"): pure verification for the transport layer.
export { verifyInbound } from './verify';
export type { InboundRequest, VerifyResult } from './request';
