// The deliverer runtime: the consumer of a channel's delivery queue, the one handler that
// decides what follows an attempt, the retry tiers and the redrive of dead-lettered deliveries.
// The target kinds it delivers through are @relay/targets'.
export { handleDelivery } from './delivery/handle';
export { createDeliverer } from './delivery/worker';
export type { DelivererOptions } from './delivery/worker';
export { delivererConfigSpec, retryPolicyOf } from './delivery/config';
export type { DelivererConfig } from './delivery/config';
export { defaultRetryTiers } from './retry/tiers';
export { redriveDeadDeliveries } from './retry/redrive';
export type { RedriveOptions, RedriveResult } from './retry/redrive';
export { parseRedriveArgs, redriveConfigSpec, runRedrive } from './retry/redrive-command';
export type { RedriveArgs, RedriveConfig } from './retry/redrive-command';
export { BreakerRedis, HOLD_REASONS } from './gate/breaker-redis';
export type { BreakerView, GateAnswer, HoldReason, ReportAnswer } from './gate/breaker-redis';
export { RedisTargetGate } from './gate/target-gate';
export type { BreakerSync, GateVerdict, Pass, TargetGate } from './gate/target-gate';
export { createBreakerStateWriter } from './gate/sync';
export type { BreakerStateWriter } from './gate/sync';
export { gateKeys } from './gate/keys';
export { HOLD_TIERS_MS } from './retry/tiers';
