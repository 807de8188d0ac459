/**
 * Outcome codes of the Request activity log. The spec names the first eight; the rest follow
 * the same UPPER_SNAKE naming for rejections the spec describes without naming a code.
 * docs/ingest.md lists each with its HTTP status and whether a row is kept.
 */
export const OUTCOMES = [
  'ACCEPTED',
  'AUTH_FAILED',
  'METHOD_NOT_ALLOWED',
  'IP_BLOCKED',
  'REQUEST_BODY_FILTER_FAILED',
  'DELIVERY_QUEUE_UNAVAILABLE',
  'MALFORMED_QUERY_PARAM',
  'PAYLOAD_TOO_LARGE',
  'REQUIRED_HEADER_MISSING',
  'FIELD_VALIDATION_FAILED',
  'MALFORMED_PAYLOAD',
  'UNSUPPORTED_MEDIA_TYPE',
  'CAPTCHA_FAILED',
  'RATE_LIMITED',
  'QUOTA_EXCEEDED',
  'MALFORMED_HEADER',
  'REQUEST_TIMEOUT',
  // A provider's endpoint handshake answered at ingest (never delivered), and a
  // provider's retry of a delivery id already accepted (answered as a replay, never delivered).
  'HANDSHAKE_ANSWERED',
  'DUPLICATE',
  // a payload its endpoint's contract refuses (docs/contracts.md)
  'CONTRACT_VIOLATION',
] as const;

export type Outcome = (typeof OUTCOMES)[number];

/**
 * The refusals of the payload and content steps (docs/ingest.md "Processing order" 4 and 5),
 * which only a request that passed authentication reaches: a sender's such request is kept in
 * quarantine for a re-run (docs/ingest.md "Quarantine").
 */
export const QUARANTINED_OUTCOMES: readonly Outcome[] = [
  'MALFORMED_PAYLOAD',
  'MALFORMED_QUERY_PARAM',
  'MALFORMED_HEADER',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'REQUIRED_HEADER_MISSING',
  'REQUEST_BODY_FILTER_FAILED',
  'FIELD_VALIDATION_FAILED',
  'CONTRACT_VIOLATION',
];

/**
 * Delivery state of one event × target, as reported by the deliverers. `transform_failed`: a
 * transformation threw, timed out or returned what cannot be delivered (final; the event is kept
 * and can be resent once the code is fixed); `dropped`: a transformation returned null (final, done).
 */
export const DELIVERY_STATES = ['delivered', 'retrying', 'failed', 'transform_failed', 'dropped'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
