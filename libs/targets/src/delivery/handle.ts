import { ACTIVITY_ATTEMPT_V1 } from '@relay/contracts';
import type { ActivityAttemptV1, DeliveryMessageV1 } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { TargetRecord } from '@relay/store';
import { TargetConfigError } from '../kind';
import type { AttemptResult, OutboundRequest, SendOutcome, TargetKind } from '../kind';
import type { TargetRegistry } from '../registry';

export interface TargetLookup {
  find(targetId: string): Promise<TargetRecord | null>;
}

/** Makes an attempt's outcome durable (broker-confirmed) before the delivery is acked. */
export interface AttemptRecorder {
  record(attempt: ActivityAttemptV1): Promise<void>;
}

export interface DeliveryDeps {
  targets: TargetLookup;
  registry: TargetRegistry;
  send(req: OutboundRequest): Promise<SendOutcome>;
  recorder: AttemptRecorder;
  logger: Logger;
  now(): Date;
}

/**
 * The one place that turns a delivery message into an attempt and its recorded outcome.
 * A failed attempt is an expected outcome — recorded, then acked — never thrown. It throws
 * only when the outcome could not be made durable, so the consumer requeues the message
 * and the attempt is repeated (at-least-once; receivers dedupe on X-Relay-Delivery-Id).
 */
export async function handleDelivery(d: DeliveryMessageV1, deps: DeliveryDeps): Promise<void> {
  const target = await deps.targets.find(d.target_id);
  const kind = target ? deps.registry.get(target.kind) : undefined;
  let outcome: AttemptResult;
  let durationMs = 0;
  if (!target || !target.enabled) {
    outcome = { result: 'permanent', status: null, error: target ? 'target disabled' : 'target deleted', flagTarget: false };
  } else if (!kind) {
    outcome = { result: 'permanent', status: null, error: `unknown target kind ${target.kind}`, flagTarget: false };
  } else {
    const built = buildRequest(kind, target, d);
    if ('failure' in built) outcome = built.failure;
    else {
      const sent = await deps.send(built.request);
      durationMs = sent.durationMs;
      outcome = kind.classify(sent);
    }
  }
  const attempt = toAttempt(d, outcome, durationMs, deps.now());
  await deps.recorder.record(attempt);
  deps.logger.info('delivery attempt', {
    event_id: d.event_id,
    delivery_id: d.delivery_id,
    endpoint_id: d.endpoint_id,
    target_id: d.target_id,
    attempt: d.attempt,
    state: attempt.state,
    status_code: attempt.status_code,
    duration_ms: Math.round(durationMs),
    error: attempt.error,
  });
}

/**
 * A stored config that can no longer produce a request (Enforce HTTPS on a non-HTTPS URL,
 * a secret no configured key can open) fails permanently and flags the target: retrying
 * cannot fix it, and requeueing would loop.
 */
function buildRequest(kind: TargetKind, target: TargetRecord, d: DeliveryMessageV1): { request: OutboundRequest } | { failure: AttemptResult } {
  try {
    return { request: kind.buildRequest(target.config, d) };
  } catch (err) {
    if (err instanceof TargetConfigError) return { failure: { result: 'permanent', status: null, error: `${err.code}: ${err.message}`, flagTarget: true } };
    throw err;
  }
}

function toAttempt(d: DeliveryMessageV1, outcome: AttemptResult, durationMs: number, now: Date): ActivityAttemptV1 {
  return {
    type: ACTIVITY_ATTEMPT_V1,
    event_id: d.event_id,
    delivery_id: d.delivery_id,
    account_id: d.account_id,
    endpoint_id: d.endpoint_id,
    target_id: d.target_id,
    target_kind: d.target_kind,
    attempt: d.attempt,
    attempted_at: now.toISOString(),
    // Retries are scheduled by the retry policy (issue 4); until a schedule exists every
    // unsuccessful attempt is final and reported as failed, never silently dropped.
    state: outcome.result === 'success' ? 'delivered' : 'failed',
    status_code: outcome.status,
    duration_ms: Math.round(durationMs * 10) / 10,
    error: outcome.result === 'success' ? null : outcome.error.slice(0, 500),
    next_attempt_at: null,
  };
}
