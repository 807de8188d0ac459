import type { ActivityAttemptV1, DeliveryMessageV1 } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { TargetRecord } from '@relay/store';
import type { HttpRequest, SendOutcome, TargetRegistry } from '@relay/targets';
import type { HoldReason, TargetGate } from '@relay/target-gate';
import type { DeliveryTransformer } from '@relay/transform';
import type { RetryPolicy } from '../retry/decide';

/* The narrow interfaces the delivery handler works through; adapters.ts implements them. */

export interface TargetLookup {
  find(targetId: string): Promise<TargetRecord | null>;
}

/** Makes an attempt's outcome durable (broker-confirmed) before the delivery is acked. */
export interface AttemptRecorder {
  record(attempt: ActivityAttemptV1): Promise<void>;
}

export interface DeadLetterReason {
  reason: 'permanent' | 'exhausted';
  error: string;
  status: number | null;
  /** when it was dead-lettered, by the handler's clock (the x-relay-dead-at header) */
  at: Date;
}

/** Where a delivery goes after an attempt. Both resolve only on the broker's confirm. */
export interface DeliveryRouter {
  /**
   * the next attempt, after `tierMs` in that delay tier (0: straight back to the work queue); a
   * held delivery carries `holdUntil`, when its wait ends (epoch ms)
   */
  retry(next: DeliveryMessageV1, tierMs: number, scheduleBase: number, holdUntil?: number): Promise<void>;
  /** the channel's dead-letter queue, with why it is there */
  deadLetter(delivery: DeliveryMessageV1, why: DeadLetterReason): Promise<void>;
}

/** The flag operators see on a target whose destination is gone or keeps refusing. */
export interface TargetHealth {
  /** sets the flag on the target (stored; every deliverer sees it); false when it was flagged already */
  flag(targetId: string, reason: string): Promise<boolean>;
  /** counts one more permanent failure in a row; returns the streak */
  permanentFailure(targetId: string): number;
  /** ends the streak: a success, or the target was seen flagged */
  reset(targetId: string): void;
}

export type AttemptMetricResult = 'delivered' | 'retrying' | 'failed' | 'dead';

/** Why a target was flagged: the kind's verdict on its destination or config, a streak of permanent failures, or a breaker open too long. */
export const FLAG_REASONS = ['destination', 'streak', 'breaker'] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];

/** Counts attempts and what followed them (metrics.ts implements it with prom-client). */
export interface DeliveryMeter {
  /** one attempt whose outcome is durable; `sentMs` is the request's time, null when none was sent */
  attempted(kind: string, result: AttemptMetricResult, sentMs: number | null): void;
  retryScheduled(tierMs: number): void;
  deadLettered(kind: string, reason: 'permanent' | 'exhausted'): void;
  /** this process set a target's flag (one already flagged is not counted again) */
  targetFlagged(kind: string, reason: FlagReason): void;
  /** a delivery the gate held (published again to wait; no attempt) */
  held(kind: string, reason: HoldReason): void;
  /** a breaker transition this process made (the Lua transition tells who) */
  breakerTransition(to: string): void;
}

export interface DeliveryPolicy extends RetryPolicy {
  /** FLAG_AFTER_PERMANENT_FAILURES: permanent failures in a row that flag a target; 0 = never */
  flagAfterPermanentFailures: number;
}

export interface DeliveryDeps {
  targets: TargetLookup;
  /** the per-target limits and breaker, asked before an attempt and told after (@relay/target-gate) */
  gate: TargetGate;
  registry: TargetRegistry;
  /** the endpoint's and the target's transformations, applied before the attempt */
  transform: Pick<DeliveryTransformer, 'apply'>;
  send(req: HttpRequest): Promise<SendOutcome>;
  recorder: AttemptRecorder;
  router: DeliveryRouter;
  health: TargetHealth;
  meter: DeliveryMeter;
  policy: DeliveryPolicy;
  logger: Logger;
  now(): Date;
  /** jitter source, [0, 1) */
  random(): number;
}

/** Where in its retry schedule a delivery is (see retry/decide.ts AttemptPosition). */
export interface DeliveryRun {
  scheduleBase: number;
  /** a held delivery: when its wait ends (epoch ms); before then it waits again without asking the gate */
  holdUntil?: number;
  /** an ordered delivery: no attempt after this time (epoch ms; docs/ordering.md) */
  deadline?: number;
  /** a CLI session target's backlog entry back from the backlog expired: recorded failed, nothing run or sent */
  keptTooLong?: true;
}
