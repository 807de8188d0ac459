export { createSsrfAgents, guardedLookup, SsrfBlockedError } from './agents';
export type { SsrfAgentOptions, SsrfAgents } from './agents';
export { createAddressPolicy, parseCidrs } from './policy';
export type { AddressPolicy, AddressPolicyOptions } from './policy';
