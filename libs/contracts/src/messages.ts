import type { KeptResponse } from './kept-response';
import type { AccountEvent } from './account-events';
import type { DeliveryState, Outcome } from './outcomes';

/**
 * Message contracts. Every message body carries its versioned `type`; a breaking change adds
 * a new type (`…v2`) that consumers learn before producers send it.
 */
export const DELIVERY_V1 = 'relay.delivery.v1';
export const ACTIVITY_REQUEST_V1 = 'relay.activity.request.v1';
export const ACTIVITY_ATTEMPT_V1 = 'relay.activity.attempt.v1';
export const ACTIVITY_BATCH_V1 = 'relay.activity.batch.v1';
export const PAYLOAD_BATCH_V1 = 'relay.payload.batch.v1';
/** most records one batch carries: bounds a message's size and what one unacked message holds */
export const MAX_ACTIVITY_BATCH = 100;
/** most payloads one payload batch carries (it is also bounded by bytes: MAX_PAYLOAD_BATCH_BYTES) */
export const MAX_PAYLOAD_BATCH = 100;
/** a payload batch is published once its bodies reach this many bytes (one larger payload travels alone) */
export const MAX_PAYLOAD_BATCH_BYTES = 1_048_576;

/** The sender's request as targets may need it; credentials were already removed by the gateway. */
export interface ForwardableRequest {
  method: string;
  source_ip: string;
  /** lower-cased names; only headers that may be forwarded */
  headers: Record<string, string>;
  /** raw query string without `?`, '' when none */
  query: string;
}

/** Bytes to deliver, exactly as the webhook target will receive them. */
export interface DeliveryPayload {
  /** null for format None (empty body, no Content-Type) */
  content_type: string | null;
  body_base64: string;
}

/** One delivery of one event to one target. Retries republish it with `attempt + 1`. */
export interface DeliveryMessageV1 {
  type: typeof DELIVERY_V1;
  event_id: string;
  delivery_id: string;
  attempt: number;
  account_id: string;
  endpoint_id: string;
  target_id: string;
  target_kind: string;
  received_at: string;
  request: ForwardableRequest;
  payload: DeliveryPayload;
  /**
   * The target's ordering key of this event (docs/ordering.md): set on a first delivery the gateway
   * put in an ordered partition; absent otherwise (resends, re-runs and redrives go unordered).
   */
  order_key?: string;
}

/** One row of the Request activity log, written once per request the gateway answered. */
export interface ActivityRequestV1 {
  type: typeof ACTIVITY_REQUEST_V1;
  event_id: string;
  account_id: string;
  endpoint_id: string;
  received_at: string;
  method: string;
  source_ip: string;
  outcome: Outcome;
  reason: string | null;
  /** deliveries this request started (0 unless ACCEPTED) */
  target_count: number;
  test: boolean;
  /** enabled targets whose routing rules the event did not meet: no delivery (docs/routing.md); absent when none */
  not_routed?: string[];
  /** set on the row of an alert's delivery (docs/alerts.md): it is Relay's own message, not a sender's request */
  alert?: ActivityAlert;
  /**
   * A refusal after authentication (docs/ingest.md "Quarantine"): `kept`, its request is stored
   * for a re-run; `bound_reached`, it was not, the account's hourly bound being used up. Absent
   * on every other row.
   */
  quarantine?: QuarantineState;
  /** the quarantined request this one re-ran (POST /v1/activity/:eventId/rerun); absent otherwise */
  rerun_of?: string;
  /** an event accepted though its payload failed the endpoint's contract in `mark` mode: what failed (docs/contracts.md) */
  contract_violation?: string;
}

export const QUARANTINE_STATES = ['kept', 'bound_reached'] as const;
export type QuarantineState = (typeof QUARANTINE_STATES)[number];

/** Which alert a row delivers, by name as well as id: the activity view shows it apart from requests. */
export interface ActivityAlert {
  alert_id: string;
  rule_id: string;
  rule_name: string;
  kind: AccountEvent['kind'];
  /** the condition's name, e.g. "A target was flagged" */
  title: string;
}

/** The outcome of one delivery attempt, attached to its request's activity row. */
export interface ActivityAttemptV1 {
  type: typeof ACTIVITY_ATTEMPT_V1;
  event_id: string;
  delivery_id: string;
  account_id: string;
  endpoint_id: string;
  target_id: string;
  target_kind: string;
  attempt: number;
  attempted_at: string;
  state: DeliveryState;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  next_attempt_at: string | null;
  /**
   * What the target answered (headers and the start of the body, capped: kept-response.ts);
   * absent when no HTTP answer came (a network failure, a transport kind, an attempt not sent)
   * and from deliverers older than this field. An activity-writer must know the field before a
   * deliverer sends it: deploy writers first (docs/operations.md).
   */
  response?: KeptResponse;
  /** the transformations that ran for this attempt (docs/transformations.md); absent when none */
  transform?: AttemptTransformNote;
  /**
   * Times the attempt's request was sent again after a reused kept-alive connection was reset
   * before any answer (the target may have got each one, under the same delivery id); absent
   * when none. Like `response`, a writer must know it before a deliverer sends it.
   */
  resends?: number;
  /**
   * Set on the attempts of an ordered delivery at the head of a stuck key (docs/ordering.md
   * "Held keys"): its latest attempt is recorded again with it when the key is found stuck, and
   * each later attempt of that head carries it. Absent otherwise. Like `response`, a writer must
   * know it before a deliverer sends it.
   */
  ordering?: AttemptOrderingNote;
}

/** The ordering key a stuck head holds back, and when it was found stuck (it had waited ORDERING_STUCK_AFTER_MS). */
export interface AttemptOrderingNote {
  key: string;
  stuck_since: string;
}

/** Which transformation versions ran for an attempt, and their console lines (bounded). */
export interface AttemptTransformNote {
  versions: { scope: 'endpoint' | 'target'; version: number }[];
  logs: string[];
}
/** console lines an attempt keeps, and characters per line */
export const MAX_ATTEMPT_TRANSFORM_LOGS = 20;
export const MAX_ATTEMPT_TRANSFORM_LOG_CHARS = 300;

export type ActivityMessage = ActivityRequestV1 | ActivityAttemptV1;

/**
 * Activity records produced close together travel as one message: one broker write, confirm,
 * delivery and ack for many rows instead of one each (the broker's per-message work was the
 * largest share of Relay's CPU under load; docs/benchmarks.md "Whole system").
 */
export interface ActivityBatchV1 {
  type: typeof ACTIVITY_BATCH_V1;
  records: ActivityMessage[];
}

/**
 * An accepted event's payload, as its deliveries carry it, kept with its activity row so the
 * event can be delivered again (resend, bulk retry; docs/delivery.md "Resend"). Payloads travel
 * on a queue of their own: they are large, and the activity queue's consumer holds thousands of
 * small records at once.
 */
export interface StoredPayloadV1 {
  event_id: string;
  account_id: string;
  endpoint_id: string;
  received_at: string;
  request: ForwardableRequest;
  payload: DeliveryPayload;
}

export interface PayloadBatchV1 {
  type: typeof PAYLOAD_BATCH_V1;
  payloads: StoredPayloadV1[];
}

export type RelayMessage = DeliveryMessageV1 | ActivityMessage | ActivityBatchV1 | PayloadBatchV1 | AccountEvent;
