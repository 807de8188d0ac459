export { createSsrfAgents, guardedLookup, parseHostRoutes, SsrfBlockedError } from './agents';
export type { HostRoutes, SsrfAgentOptions, SsrfAgents } from './agents';
export { createAddressPolicy, parseCidrs } from './policy';
export type { AddressPolicy, AddressPolicyOptions } from './policy';
