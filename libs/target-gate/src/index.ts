// The per-target gate in front of every delivery attempt: delivery limits (rate, in flight) and
// the circuit breaker, kept in Redis by Lua scripts under one key per target, with each
// deliverer's local allowance and the writer of the breaker's stored copy. The deliverer asks it
// before and tells it after each attempt; the management API pauses and resumes through it.
export { BreakerRedis, HOLD_REASONS } from './breaker-redis';
export type { BreakerView, GateAnswer, HoldReason, ReportAnswer } from './breaker-redis';
export { RedisTargetGate } from './target-gate';
export type { BreakerSync, GateScripts, GateVerdict, Pass, TargetGate } from './target-gate';
export { announceTransition, createBreakerStateWriter } from './sync';
export type { BreakerStateWriter } from './sync';
export { gateKeys } from './keys';
