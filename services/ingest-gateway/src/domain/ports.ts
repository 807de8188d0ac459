import type { ActivityRequestV1, DeliveryChannel, DeliveryMessageV1 } from '@relay/contracts';
import type { ResolvedCaptchaSettings } from '@relay/endpoints';

/**
 * What the ingest pipeline needs from the outside world, as narrow interfaces: adapters/
 * implements them over RabbitMQ, Redis and HTTP; unit tests pass in-memory fakes.
 */

/** The broker could not take a message (not connected, nack, unroutable, no confirm in time). */
export class DeliveryQueueUnavailableError extends Error {
  constructor(cause: unknown) {
    super('delivery queue unavailable', { cause });
    this.name = 'DeliveryQueueUnavailableError';
  }
}

export interface EventPublisher {
  /** resolves when the broker confirmed every delivery; rejects with DeliveryQueueUnavailableError */
  publishDeliveries(deliveries: { message: DeliveryMessageV1; channel: DeliveryChannel }[]): Promise<void>;
  /** resolves when the broker confirmed the row; rejects with DeliveryQueueUnavailableError */
  publishActivity(row: ActivityRequestV1): Promise<void>;
}

/** Best-effort activity rows of answered requests: never throws, never delays the answer. */
export interface ActivityRecorder {
  record(row: ActivityRequestV1): void;
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
}

/** `unavailable`: the provider could not be asked or gave no usable answer. */
export type CaptchaVerdict = 'verified' | 'rejected' | 'unavailable';

export interface CaptchaVerifier {
  verify(settings: ResolvedCaptchaSettings, token: string, remoteIp: string): Promise<CaptchaVerdict>;
}
