import type { ActivityRequestV1, DeliveryChannel, DeliveryMessageV1, StoredPayloadV1 } from '@relay/contracts';
import type { CertificateProvider, ResolvedCaptchaSettings } from '@relay/endpoints';
import type { TrustVerdict } from './auth/certificate';
import type { PooledJob, PooledVerdict, RuleAt } from './rules/pooled-rules';

/**
 * What the ingest pipeline needs from the outside world, as narrow interfaces: adapters/
 * implements them over RabbitMQ, Redis and HTTP; unit tests pass in-memory fakes.
 */

export interface EventPublisher {
  /** resolves when the broker confirmed every delivery; rejects with @relay/broker's DeliveryQueueUnavailableError */
  publishDeliveries(deliveries: { message: DeliveryMessageV1; channel: DeliveryChannel }[]): Promise<void>;
  /** resolves when the broker confirmed the row; rejects with @relay/broker's DeliveryQueueUnavailableError */
  publishActivity(row: ActivityRequestV1): Promise<void>;
}

/** Best-effort activity rows of answered requests: never throws, never delays the answer. */
export interface ActivityRecorder {
  record(row: ActivityRequestV1): void;
}

/**
 * Accepted payloads kept with their rows for resends (docs/delivery.md "Resend"): best-effort,
 * like the row; never throws, never delays the answer.
 */
/**
 * The account's hourly bound on quarantined requests (docs/ingest.md "Quarantine"): `take` counts
 * one and says whether it was within QUARANTINE_PER_ACCOUNT_PER_HOUR.
 */
export interface QuarantineBound {
  take(accountId: string, now: Date): Promise<boolean>;
}

export interface PayloadRecorder {
  record(payload: StoredPayloadV1): void;
}

/**
 * What an Idempotency-Key found (docs/ingest.md "Idempotency-Key"): the key is free and now held
 * by this request; an earlier request with it was accepted as `eventId`; one is still in flight;
 * or the store could not be asked (the request then goes on without de-duplication).
 */
export type IdempotencyClaim =
  { state: 'claimed' } | { state: 'replay'; eventId: string } | { state: 'in_flight' } | { state: 'unavailable' };

/** Idempotency keys per endpoint, for a window. Never rejects. */
export interface IdempotencyStore {
  claim(endpointId: string, key: string, eventId: string): Promise<IdempotencyClaim>;
  /**
   * the request holding the key was accepted: later requests with it are answered as it was, for
   * `windowMs` (default: the Idempotency-Key window; a provider delivery id brings its own)
   */
  complete(endpointId: string, key: string, eventId: string, windowMs?: number): Promise<void>;
  /** the request holding the key was refused: the key is free again */
  release(endpointId: string, key: string, eventId: string): Promise<void>;
}

export interface LimitRequest {
  endpointId: string;
  accountId: string;
  ratePerMinute: number;
  monthlyQuota: number;
  now: Date;
}

export type LimitDecision =
  /** `counter`: the shared Redis counters, or this process's own while Redis is unreachable */
  | { admitted: true; counter: 'shared' | 'local' }
  | { admitted: false; limit: 'rate'; retryAfterSeconds: number }
  | { admitted: false; limit: 'quota' };

/**
 * Spec step 6: the per-endpoint rate limit and the account's monthly accepted-event quota,
 * checked and counted together. Never rejects: when its store is unreachable it decides alone.
 */
export interface Limiter {
  admit(req: LimitRequest): Promise<LimitDecision>;
  /** gives back the quota unit of an admitted request that was not accepted after all; never rejects */
  refund(req: LimitRequest, decision: Extract<LimitDecision, { admitted: true }>): Promise<void>;
  /**
   * Counts one MAC handshake answer of the endpoint in the current minute (docs/inbound-auth.md
   * "Handshakes"): refused past `perMinute`. Never rejects: decided per process when its store is
   * unreachable.
   */
  admitHandshake(
    endpointId: string,
    perMinute: number,
    now: Date,
  ): Promise<{ admitted: true } | { admitted: false; retryAfterSeconds: number }>;
}

/** `unavailable`: the provider could not be asked or gave no usable answer. */
export type CaptchaVerdict = 'verified' | 'rejected' | 'unavailable';

export interface CaptchaVerifier {
  verify(settings: ResolvedCaptchaSettings, token: string, remoteIp: string): Promise<CaptchaVerdict>;
}

/**
 * The rule pool (docs/security.md "Rule cost"): worker threads that evaluate the pattern rules of
 * the requests whose estimated cost exceeds `inlineCost`, each within `deadlineMs`, so that no
 * request's rules hold the event loop. Never rejects.
 */
export interface RulePool {
  /** a request whose rules may cost at most this (RE2 program size × characters) runs them inline */
  readonly inlineCost: number;
  readonly deadlineMs: number;
  evaluate(accountId: string, job: PooledJob): Promise<PoolAnswer>;
}

/**
 * `done`: evaluated. `deadline`: stopped at `deadlineMs` (the worker was replaced), at the rule
 * it was running. `busy`: not queued, because the account already has its share of the pool's
 * queue (`account`) or the queue is full (`pool`). `unusable`: a stored pattern cannot be compiled
 * (why, for the log).
 */
export type PoolAnswer =
  { done: PooledVerdict } | { deadline: RuleAt | null } | { busy: 'account' | 'pool' } | { unusable: string };

/** An accepted event of a preset endpoint, for learning its payload shape (docs/contracts.md "Drift"). */
export interface DriftSample {
  accountId: string;
  endpointId: string;
  eventId: string;
  /** from the contracts' event-type selector; null: none (one shape for the endpoint) */
  eventType: string | null;
  data: unknown;
  at: Date;
}

/** Learns payload shapes off the accept path: returns at once, never throws. */
export interface DriftLearner {
  learn(sample: DriftSample): void;
}

/**
 * A provider's signing certificate, fetched from its URL (already checked against the provider's
 * documented hosts) through the SSRF guard, checked (domain/auth/certificate/trust.ts) and kept
 * for many requests. `unavailable`: it could not be fetched (timeout, refused, not 200); the
 * request cannot be verified now and is answered 503, never accepted.
 */
export interface SigningCertificates {
  get(url: string, provider: CertificateProvider, now: Date): Promise<CertificateAnswer>;
}

export type CertificateAnswer = TrustVerdict | { ok: false; unavailable: string };

/** SNS's subscription confirmation: a GET of the SubscribeURL (already checked), through the SSRF guard. */
export interface SubscriptionConfirmer {
  confirm(url: string): Promise<{ ok: true } | { ok: false; problem: string }>;
}
