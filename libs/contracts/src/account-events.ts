/**
 * Account events: things that happened to an account's endpoints and targets that the account
 * may want to be told about (alert rules, docs/alerts.md). Any service publishes them through
 * `publishAccountEvent` (@relay/broker) to the account-events queue; the alert evaluator
 * consumes them, matches the account's alert rules and delivers the alerts.
 *
 * An event is published once per transition (a target flagged, a breaker opened, a failure rate
 * crossing its threshold), never once per delivery: producers detect the transition from
 * counters they already keep.
 */
export const ACCOUNT_EVENT_V1 = 'relay.account-event.v1';

export const ACCOUNT_EVENT_KINDS = [
  'target_flagged',
  'breaker_opened',
  'breaker_closed',
  'failure_rate',
  'rejection_spike',
  'quota_nearly_used',
  'ordering_key_stuck',
  'payload_drift',
] as const;
export type AccountEventKind = (typeof ACCOUNT_EVENT_KINDS)[number];

/** What an event says beyond its kind: small scalar facts (counts, shares, an outcome code, a reason). */
type AccountEventDetail = Record<string, string | number | boolean | null>;

/** Most properties of `detail`, and the longest string value: an event stays a small message. */
export const MAX_ACCOUNT_EVENT_DETAIL_KEYS = 16;
export const MAX_ACCOUNT_EVENT_DETAIL_STRING = 500;

export interface AccountEvent {
  type: typeof ACCOUNT_EVENT_V1;
  kind: AccountEventKind;
  account_id: string;
  /** the endpoint it is about, when it is about one (rejection_spike, payload_drift; a flagged target's endpoint) */
  endpoint_id?: string;
  /** the target it is about, when it is about one */
  target_id?: string;
  /** when it happened (ISO 8601) */
  at: string;
  detail: AccountEventDetail;
}

/** The fields a producer gives; `type` is added by `accountEvent`. */
export type AccountEventInput = Omit<AccountEvent, 'type'>;

export function accountEvent(input: AccountEventInput): AccountEvent {
  return { type: ACCOUNT_EVENT_V1, ...input };
}
