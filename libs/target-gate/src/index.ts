// The per-target gate in front of every delivery attempt: delivery limits (rate, in flight) and
// the circuit breaker, kept in Redis by Lua scripts under one hash tag per target, with each
// deliverer's local allowance and the writer of the breaker's stored copy. The deliverer asks it
// before and tells it after each attempt; the management API pauses and resumes through it.
export { BreakerRedis } from './breaker-redis';
export type { BreakerView } from './breaker-redis';
export { RedisTargetGate } from './target-gate';
export type { GateScripts, TargetGate } from './target-gate';
export type { GateVerdict, HoldReason, Pass } from './verdict';
export { createBreakerStateWriter } from './state-writer';
export { gateKeys } from './keys';
