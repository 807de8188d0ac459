import { ACTIVITY_ATTEMPT_V1, keptResponse } from '@relay/contracts';
import type { ActivityAttemptV1, DeliveryMessageV1 } from '@relay/contracts';
import type { TargetRecord } from '@relay/store';
import { PayloadError, retryScheduleOf, TargetConfigError } from '@relay/targets';
import type {
  AnyTargetKind,
  AttemptResult,
  OutboundRequest,
  ResponseSummary,
  TargetKind,
  TransportKind,
} from '@relay/targets';
import type { HoldReason } from '@relay/target-gate';
import { decideRetry } from '../retry/decide';
import type { RetryDecision } from '../retry/decide';
import { holdTier } from '../retry/tiers';
import { unsentAttempt } from './attempt-record';
import type { DeliveryDeps, DeliveryRun, FlagReason } from './ports';
import { addressedUrl } from '@relay/transform';
import type { Address, DeliveryStep } from '@relay/transform';

export type {
  AttemptMetricResult,
  AttemptRecorder,
  DeadLetterReason,
  DeliveryDeps,
  DeliveryMeter,
  DeliveryPolicy,
  DeliveryRouter,
  DeliveryRun,
  FlagReason,
  TargetHealth,
  TargetLookup,
} from './ports';

interface Tried {
  outcome: AttemptResult;
  durationMs: number;
  /** the outcome says something about the destination (it was sent, or its config is broken) */
  aboutDestination: boolean;
  /** a request went out (durationMs is its time) */
  sent: boolean;
  /** what the destination answered, when an HTTP answer came (the first 4 KB of its body) */
  response?: ResponseSummary;
  /** times the request was sent again inside the attempt (a reused connection reset before any answer) */
  resends?: number;
}

/**
 * The one place that turns a delivery message into an attempt and decides what follows
 * (STYLE "one place decides ack, retry or dead-letter"). A failed attempt is an expected
 * outcome: the next attempt is published to its delay tier, or the delivery to the
 * dead-letter queue, and the outcome is recorded — all broker-confirmed — and only then does
 * the caller ack. It throws only when that could not be made durable, so the consumer
 * requeues and the attempt is repeated (at-least-once; receivers dedupe on X-Relay-Delivery-Id).
 */
export async function handleDelivery(
  d: DeliveryMessageV1,
  deps: DeliveryDeps,
  run: DeliveryRun = { scheduleBase: 1 },
): Promise<DeliveryOutcome> {
  if (run.keptTooLong) return keptTooLong(d, deps);
  if (run.holdUntil !== undefined && run.holdUntil > deps.now().getTime()) return holdOn(d, run.holdUntil, run, deps);
  const target = await deps.targets.find(d.target_id);
  // transformations run before the gate: a dropped or failed one takes no slot (docs/transformations.md)
  const step = target?.enabled && !target.flagged ? await deps.transform.apply(d, target) : null;
  if (step && step.result !== 'pass') return transformEnded(d, step, deps);
  const kind = target ? deps.registry.get(target.kind) : undefined;
  // only a target that would be sent to asks the gate (its limits and breaker, docs/delivery-limits.md)
  const gated =
    target && kind && target.enabled && !target.flagged
      ? { target, kind, verdict: await deps.gate.admit(target, kind) }
      : null;
  if (gated?.verdict.verdict === 'hold') return hold(d, gated.verdict, gated.kind, run, deps);
  const attemptedAt = deps.now();
  // the transformed request is what is sent; retries republish the original, transformed again then
  const tried = await attempt(step?.delivery ?? d, target, kind, deps, step?.address);
  if (gated) await deps.gate.settle(gated.target, gated.verdict, tried.outcome, tried.sent);
  if (target?.flagged) deps.health.reset(target.id);
  const schedule = target && kind ? retryScheduleOf(target, kind) : [];
  const decision = decideRetry(
    tried.outcome,
    {
      attempt: d.attempt,
      scheduleBase: run.scheduleBase,
      ...(run.deadline === undefined ? {} : { deadline: run.deadline }),
    },
    schedule,
    deps.policy,
    deps.now(),
    deps.random,
  );
  const record = { ...toAttempt(d, tried, decision, attemptedAt), ...(step?.note ? { transform: step.note } : {}) };
  // Recorded first: if the retry publish then fails, the redelivered copy repeats the attempt
  // (no retry was published); the other order could leave a published retry plus a redelivery,
  // two chains of attempts for one delivery.
  await deps.recorder.record(record);
  await follow(d, decision, tried.outcome, target, run, deps);
  meter(decision, tried, kind, target !== null, deps);
  if (target && kind && tried.aboutDestination) await updateHealth(target, kind, tried.outcome, deps);
  deps.logger.info('delivery attempt', {
    event_id: d.event_id,
    delivery_id: d.delivery_id,
    endpoint_id: d.endpoint_id,
    target_id: d.target_id,
    attempt: d.attempt,
    state: record.state,
    status_code: record.status_code,
    duration_ms: Math.round(tried.durationMs),
    error: record.error,
    next_attempt_at: record.next_attempt_at,
    ...(decision.state === 'retrying' ? { tier_ms: decision.tierMs } : {}),
    ...(decision.state === 'failed' ? { failure: decision.reason } : {}),
  });
  return decision;
}

/**
 * What one received delivery came to: an attempt and what follows it, held without one
 * (`waiting`: back before its wait ended, held again), or ended by a transformation.
 */
export type DeliveryOutcome =
  | RetryDecision
  | { state: 'held'; reason: HoldReason | 'waiting'; tierMs: number }
  | { state: 'dropped' | 'transform_failed' };

/**
 * A transformation dropped the event (null) or failed: recorded as the attempt's final state,
 * nothing sent, nothing retried or dead-lettered — the event's payload is kept with its row, and
 * a resend runs the transformation's current version on it.
 */
async function transformEnded(
  d: DeliveryMessageV1,
  step: Exclude<DeliveryStep, { result: 'pass' }>,
  deps: DeliveryDeps,
): Promise<DeliveryOutcome> {
  const error = step.result === 'transform_failed' ? step.error.slice(0, 500) : null;
  await deps.recorder.record(
    unsentAttempt(d, { attempted_at: deps.now().toISOString(), state: step.result, error, transform: step.note }),
  );
  deps.logger.info('delivery attempt', {
    event_id: d.event_id,
    delivery_id: d.delivery_id,
    target_id: d.target_id,
    attempt: d.attempt,
    state: step.result,
    error,
  });
  return { state: step.result };
}

/**
 * A CLI session target's delivery that waited in its backlog for as long as the backlog keeps
 * one (docs/cli.md "The backlog") and no session took it: failed. It is the request as it was
 * kept, after transformations, so it is neither transformed again nor retried; no dead-letter
 * copy either (a redrive would transform it again) — a resend sends it from the stored payload.
 */
async function keptTooLong(d: DeliveryMessageV1, deps: DeliveryDeps): Promise<DeliveryOutcome> {
  const error = 'kept in the backlog as long as it keeps a delivery, and no relay listen session took it';
  await deps.recorder.record(unsentAttempt(d, { attempted_at: deps.now().toISOString(), state: 'failed', error }));
  const { event_id, delivery_id, target_id, attempt } = d;
  deps.logger.info('delivery attempt', { event_id, delivery_id, target_id, attempt, state: 'failed', error });
  return { state: 'failed', reason: 'exhausted' };
}

/**
 * A delivery the gate holds (a limit is reached, the breaker is open or half-open, the target is
 * paused) waits on the broker, not in memory: it is published again, unchanged — the same
 * attempt number, so waiting uses up no attempt — with the time its wait ends, to a delay tier
 * whose TTL dead-letters it back to the work queue; the caller acks after the confirm. Nothing is
 * recorded in the activity log: no attempt was made.
 */
async function hold(
  d: DeliveryMessageV1,
  verdict: { reason: HoldReason; waitMs: number },
  kind: AnyTargetKind,
  run: DeliveryRun,
  deps: DeliveryDeps,
): Promise<DeliveryOutcome> {
  const waitMs = Math.max(verdict.waitMs, 1);
  const tierMs = holdTier(waitMs, deps.policy.tiersMs);
  await deps.router.retry(d, tierMs, run.scheduleBase, deps.now().getTime() + waitMs);
  deps.meter.held(kind.kind, verdict.reason);
  deps.logger.debug('delivery held', {
    delivery_id: d.delivery_id,
    target_id: d.target_id,
    attempt: d.attempt,
    reason: verdict.reason,
    wait_ms: waitMs,
    tier_ms: tierMs,
  });
  return { state: 'held', reason: verdict.reason, tierMs };
}

/**
 * A held delivery back before its wait ends waits again for the rest, without asking the gate:
 * tiers are coarse, so a wait is served by a few of them in turn (the largest that fits each
 * time), and the delivery asks when its turn has come — not earlier, which would take a later
 * turn behind the deliveries held since.
 */
async function holdOn(
  d: DeliveryMessageV1,
  holdUntil: number,
  run: DeliveryRun,
  deps: DeliveryDeps,
): Promise<DeliveryOutcome> {
  const tierMs = holdTier(holdUntil - deps.now().getTime(), deps.policy.tiersMs);
  await deps.router.retry(d, tierMs, run.scheduleBase, holdUntil);
  return { state: 'held', reason: 'waiting', tierMs };
}

/**
 * A flagged target gets no requests until an operator clears the flag: its destination is
 * gone or refuses (Discord bans IPs that repeat invalid requests). Its deliveries fail and are
 * dead-lettered, so they can be redriven once the flag is cleared.
 */
async function attempt(
  d: DeliveryMessageV1,
  target: TargetRecord | null,
  kind: AnyTargetKind | undefined,
  deps: DeliveryDeps,
  address: Address | undefined,
): Promise<Tried> {
  const stop = (error: string): Tried => ({
    outcome: { result: 'permanent', status: null, error, flagTarget: false },
    durationMs: 0,
    aboutDestination: false,
    sent: false,
  });
  if (!target) return stop('target deleted');
  if (!target.enabled) return stop('target disabled');
  if (target.flagged) return stop(`target flagged: ${target.flagged.reason}`);
  if (!kind) return stop(`unknown target kind ${target.kind}`);
  if (kind.deliver) return viaTransport(kind, target, d, deps);
  const built = buildRequest(kind, target, d, deps, address);
  if ('failure' in built)
    return { outcome: built.failure, durationMs: 0, aboutDestination: built.failure.flagTarget, sent: false };
  const sent = await deps.send({ ...built.request, resendable: kind.resendable });
  const tried: Tried = {
    outcome: kind.classify(sent),
    durationMs: sent.durationMs,
    aboutDestination: true,
    sent: true,
    ...(sent.resends ? { resends: sent.resends } : {}),
  };
  return 'response' in sent ? { ...tried, response: sent.response } : tried;
}

/**
 * Building a request is a function of the stored config and the message alone, so whatever
 * makes it throw will make it throw again: it is recorded as a permanent failure, never
 * rethrown into a redelivery loop (a RangeError from one deeply nested
 * payload was redelivered 21 times and dead-lettered with no attempt recorded). A config that
 * can no longer produce a request (Enforce HTTPS on a non-HTTPS URL, a secret no configured key
 * can open, a header Node would refuse) also flags the target; a payload the kind cannot use
 * does not — the next payload may be fine.
 */
function buildRequest(
  kind: TargetKind,
  target: TargetRecord,
  d: DeliveryMessageV1,
  deps: DeliveryDeps,
  address: Address | undefined,
): { request: OutboundRequest } | { failure: AttemptResult & { result: 'permanent' } } {
  try {
    const request = kind.buildRequest(target.config, d);
    // a transformation's path and query address a webhook target only (docs/transformations.md)
    if (!address || kind.kind !== 'webhook') return { request };
    return { request: { ...request, url: addressedUrl(request.url, address) } };
  } catch (err) {
    return { failure: notBuilt(err, target, d, deps) };
  }
}

function notBuilt(
  err: unknown,
  target: TargetRecord,
  d: DeliveryMessageV1,
  deps: DeliveryDeps,
): AttemptResult & { result: 'permanent'; flagTarget: boolean } {
  if (err instanceof TargetConfigError)
    return { result: 'permanent', status: null, error: `${err.code}: ${err.message}`, flagTarget: true };
  if (err instanceof PayloadError)
    return { result: 'permanent', status: null, error: `${err.code}: ${err.message}`, flagTarget: false };
  // not expected: logged in full for the operator; the attempt row gets the error's name only
  deps.logger.error('request could not be built', {
    delivery_id: d.delivery_id,
    target_id: d.target_id,
    target_kind: target.kind,
    error: (err as Error)?.stack ?? String(err),
  });
  return {
    result: 'permanent',
    status: null,
    error: `REQUEST_NOT_BUILT: ${(err as Error)?.name ?? 'Error'} while building the request`,
    flagTarget: false,
  };
}

/**
 * A kind with a transport of its own (SMTP, an API with tokens) sends and classifies itself;
 * what it throws is treated as for a request that could not be built.
 */
async function viaTransport(
  kind: TransportKind,
  target: TargetRecord,
  d: DeliveryMessageV1,
  deps: DeliveryDeps,
): Promise<Tried> {
  const started = performance.now();
  try {
    const outcome = await kind.deliver(target.config, d);
    // a kept delivery reached no destination: nothing for the breaker or the target's health
    const sent = outcome.result !== 'kept';
    return { outcome, durationMs: performance.now() - started, aboutDestination: sent, sent };
  } catch (err) {
    const failure = notBuilt(err, target, d, deps);
    return { outcome: failure, durationMs: 0, aboutDestination: failure.flagTarget, sent: false };
  }
}

/** The retry carries attempt + 1; a deleted target's delivery is not kept (nothing could deliver it). */
async function follow(
  d: DeliveryMessageV1,
  decision: RetryDecision,
  outcome: AttemptResult,
  target: TargetRecord | null,
  run: DeliveryRun,
  deps: DeliveryDeps,
): Promise<void> {
  if (decision.state === 'retrying') {
    await deps.router.retry({ ...d, attempt: d.attempt + 1 }, decision.tierMs, run.scheduleBase);
  } else if (decision.state === 'failed' && target) {
    const error = outcome.result === 'success' ? '' : outcome.error;
    await deps.router.deadLetter(d, { reason: decision.reason, error, status: outcome.status, at: deps.now() });
  }
}

/**
 * Counted once the outcome and what follows it are durable, so a repeated attempt (redelivery
 * after a failed publish) is not counted twice. `kind` comes from the registry, never from the
 * message, so the label stays within the registered kinds.
 */
function meter(
  decision: RetryDecision,
  tried: Tried,
  kind: AnyTargetKind | undefined,
  targetExists: boolean,
  deps: DeliveryDeps,
): void {
  const label = kind?.kind ?? 'unknown';
  const result =
    decision.state === 'failed'
      ? targetExists
        ? 'dead'
        : 'failed'
      : decision.state === 'kept'
        ? 'retrying'
        : decision.state;
  deps.meter.attempted(label, result, tried.sent ? tried.durationMs : null);
  if (decision.state === 'retrying') deps.meter.retryScheduled(decision.tierMs);
  if (decision.state === 'failed' && targetExists) deps.meter.deadLettered(label, decision.reason);
}

/**
 * Flags the target when the kind says its destination is gone (410, unknown webhook, broken
 * config), or after FLAG_AFTER_PERMANENT_FAILURES permanent failures in a row (as one
 * deliverer instance sees them; a success ends the streak). Bookkeeping, not the outcome: a
 * store hiccup here is logged and the delivery still acked. A flag this call set is counted
 * (relay_delivery_targets_flagged_total, the RelayTargetFlagged alert); the target's id goes
 * to the log, never to a label.
 */
async function updateHealth(
  target: TargetRecord,
  kind: AnyTargetKind,
  outcome: AttemptResult,
  deps: DeliveryDeps,
): Promise<void> {
  const flag = async (reason: string, why: FlagReason): Promise<void> => {
    if (!(await deps.health.flag(target.id, reason.slice(0, 200)))) return;
    deps.meter.targetFlagged(kind.kind, why);
    deps.logger.warn('target flagged', {
      target_id: target.id,
      endpoint_id: target.endpoint_id,
      account_id: target.account_id,
      target_kind: kind.kind,
      reason: reason.slice(0, 200),
    });
  };
  try {
    if (outcome.result === 'success') return deps.health.reset(target.id);
    if (outcome.result !== 'permanent') return;
    if (outcome.flagTarget) return await flag(outcome.error, 'destination');
    const streak = deps.health.permanentFailure(target.id);
    const threshold = deps.policy.flagAfterPermanentFailures;
    if (threshold > 0 && streak >= threshold)
      await flag(`${streak} permanent failures in a row; last: ${outcome.error}`, 'streak');
  } catch (err) {
    deps.logger.warn('target health not updated', { target_id: target.id, error: (err as Error).message });
  }
}

function toAttempt(d: DeliveryMessageV1, tried: Tried, decision: RetryDecision, attemptedAt: Date): ActivityAttemptV1 {
  const { outcome } = tried;
  return {
    type: ACTIVITY_ATTEMPT_V1,
    event_id: d.event_id,
    delivery_id: d.delivery_id,
    account_id: d.account_id,
    endpoint_id: d.endpoint_id,
    target_id: d.target_id,
    target_kind: d.target_kind,
    attempt: d.attempt,
    attempted_at: attemptedAt.toISOString(),
    // a kept delivery waits for its destination (the next relay listen session): pending, no time set
    state: decision.state === 'kept' ? 'retrying' : decision.state,
    status_code: outcome.status,
    duration_ms: Math.round(tried.durationMs * 10) / 10,
    error: outcome.result === 'success' ? null : outcome.error.slice(0, 500),
    next_attempt_at: decision.state === 'retrying' ? decision.nextAttemptAt.toISOString() : null,
    // the answer as the row keeps it: capped, credentials redacted
    ...(tried.response ? { response: keptResponse(tried.response) } : {}),
    // every request the destination may have got is accounted for
    ...(tried.resends ? { resends: tried.resends } : {}),
  };
}
