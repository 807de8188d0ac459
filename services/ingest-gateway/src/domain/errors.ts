import type { Outcome } from '@relay/contracts';
import { contractSummary } from '@relay/endpoints';
import type { ContractError, ContractResult, MacHandshake } from '@relay/endpoints';
import type { Rejection } from './rules/rejection';

/**
 * A request the gateway refuses: a value the pipeline returns, never thrown (a refusal is an
 * expected outcome). Every refusal answers with one JSON shape, `{ code, message }` (spec
 * "Errors": only the 503 `code` field is fixed; Relay uses the same shape throughout).
 * `code` is the outcome in lower case, the spec's own 503 codes, or a code that says more than
 * its row's outcome (a rule-pool or handshake refusal). `outcome` is the activity
 * row to write; `null` means the spec keeps no row (unknown, disabled and paused endpoints).
 * `reason` is the row's error reason when it should say more than the sender is told.
 */
export interface IngestRejection {
  readonly status: number;
  readonly code: string;
  /** what the sender is told */
  readonly message: string;
  readonly outcome: Outcome | null;
  readonly reason: string;
  /** whole seconds (spec "Ingest / retry response") */
  readonly retryAfterSeconds?: number;
  /** methods for the Allow header of a 405 (RFC 9110 §15.5.6) */
  readonly allow?: readonly string[];
  /**
   * Sent instead of `{ code, message }`: a provider handshake's documented answer.
   * The request ends here like a refusal — recorded, never delivered — but is answered as the
   * provider requires.
   */
  readonly reply?: HandshakeReply;
  /** a contract refusal's failed checks, sent beside `code` and `message` (docs/contracts.md) */
  readonly errors?: readonly ContractError[];
}

/** A handshake answer: status, content type, exact body, extra headers. */
export interface HandshakeReply {
  readonly contentType: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

function refusal(
  status: number,
  code: string,
  message: string,
  outcome: Outcome | null,
  opts: { retryAfterSeconds?: number; reason?: string; allow?: readonly string[] } = {},
): IngestRejection {
  const { reason = message, ...headers } = opts;
  return { status, code, message, outcome, reason, ...headers };
}

/** Spec "Limits": Retry-After on endpoint_unavailable and on the quota 429. */
const SIXTY_SECONDS = 60;

/** A content check's rejection (payload, rules, IP lists, captcha token) as the sender sees it. */
export function fromCheck(r: Rejection): IngestRejection {
  return refusal(r.status, r.code.toLowerCase(), r.message, r.code);
}

export const rejections = {
  endpointNotFound: () => refusal(404, 'endpoint_not_found', 'No enabled endpoint exists at this URL.', null),
  /**
   * Paused, or otherwise unable to accept events. The cause is never revealed to the sender
   * (spec "Errors"); `reason` goes to the log, and to the row when `outcome` is given.
   */
  endpointUnavailable: (reason: string, outcome: Outcome | null = null) =>
    refusal(
      503,
      'endpoint_unavailable',
      'The endpoint cannot accept events right now. Retry after the delay in Retry-After.',
      outcome,
      {
        retryAfterSeconds: SIXTY_SECONDS,
        reason,
      },
    ),
  methodNotAllowed: (allowed: readonly string[]) =>
    refusal(405, 'method_not_allowed', `This endpoint accepts ${allowed.join(', ')}.`, 'METHOD_NOT_ALLOWED', {
      allow: allowed,
    }),
  /** a provider's endpoint handshake, answered as the provider documents it; the row says which */
  handshakeAnswered: (reason: string, reply: HandshakeReply) => ({
    ...refusal(200, 'handshake_answered', 'handshake answered', 'HANDSHAKE_ANSWERED', { reason }),
    reply,
  }),
  /** a MAC handshake's token of another shape than the provider's: no MAC is computed */
  invalidHandshakeToken: (what: string, mac: MacHandshake, outcome: Outcome) =>
    refusal(400, 'invalid_handshake_token', `${what}: ${mac.field} must be ${mac.described}.`, outcome),
  /** more MAC handshake answers than MAC_HANDSHAKES_PER_MINUTE for this endpoint */
  handshakeRateLimited: (what: string, perMinute: number, retryAfterSeconds: number) =>
    refusal(
      429,
      'handshake_rate_limited',
      `${what}: at most ${perMinute} answers a minute per endpoint. Retry after the delay in Retry-After.`,
      'RATE_LIMITED',
      { retryAfterSeconds },
    ),
  /** the sender is told only that authentication failed; the row says why */
  authFailed: (reason: string) =>
    refusal(401, 'auth_failed', 'The request does not carry valid credentials for this endpoint.', 'AUTH_FAILED', {
      reason,
    }),
  /**
   * A certificate-signed request whose certificate could not be fetched (timeout, refused, not
   * 200): it cannot be verified now, so it is not accepted; the provider retries a 5xx. The row
   * (AUTH_FAILED) says what failed.
   */
  signingCertificateUnavailable: (reason: string) =>
    refusal(
      503,
      'signing_certificate_unavailable',
      'The signing certificate named in the request could not be fetched, so the request could not be verified. Retry after the delay in Retry-After.',
      'AUTH_FAILED',
      { retryAfterSeconds: 10, reason },
    ),
  /** SNS's SubscribeURL did not answer 2xx: the subscription is not confirmed; SNS may send the confirmation again */
  subscriptionNotConfirmed: (reason: string) =>
    refusal(
      503,
      'subscription_not_confirmed',
      'The subscription could not be confirmed: its SubscribeURL did not answer. Retry after the delay in Retry-After.',
      'HANDSHAKE_ANSWERED',
      { retryAfterSeconds: 10, reason },
    ),
  /** a header the gateway cannot carry or act on (docs/ingest.md "Header values") */
  malformedHeader: (message: string) => refusal(400, 'malformed_header', message, 'MALFORMED_HEADER'),
  /** the body did not arrive within BODY_TIMEOUT_MS */
  requestTimeout: (timeoutMs: number) =>
    refusal(
      408,
      'request_timeout',
      `The request body was not received within ${Math.round(timeoutMs / 1000)} s.`,
      'REQUEST_TIMEOUT',
    ),
  payloadTooLarge: (limit: number) =>
    refusal(
      413,
      'payload_too_large',
      `The payload is larger than the plan payload limit of ${limit} bytes.`,
      'PAYLOAD_TOO_LARGE',
    ),
  /** the rule pool's deadline passed (docs/security.md "Rule cost"); `rule` names where, never its pattern */
  rulesDeadlineExceeded: (rule: string, deadlineMs: number) =>
    refusal(
      413,
      'rules_deadline_exceeded',
      `The endpoint's rules did not finish within ${deadlineMs} ms on this payload (stopped in ${rule}). Send a smaller payload, or simplify that rule.`,
      'PAYLOAD_TOO_LARGE',
    ),
  /** the payload fails its endpoint's contract in `refuse` mode; `errors` lists what failed, bounded */
  contractViolation: (result: ContractResult): IngestRejection => ({
    ...refusal(
      400,
      'contract_violation',
      `The payload does not match the endpoint's contract for event type ${result.event_type === null ? '(none)' : JSON.stringify(result.event_type.slice(0, 100))} (schema ${JSON.stringify(result.schema)}); see errors.`,
      'CONTRACT_VIOLATION',
      { reason: contractSummary(result) },
    ),
    errors: result.errors,
  }),
  /** what the contract's patterns may cost on this payload is over RULES_INLINE_COST (they never run in the rule pool) */
  contractTooCostly: () =>
    refusal(
      413,
      'contract_too_costly',
      "The endpoint's contract patterns may cost too much on this payload. Send a smaller payload, or simplify the schema's patterns.",
      'PAYLOAD_TOO_LARGE',
    ),
  /** the account already has its share of the rule pool's queue in flight */
  rulesBusy: () =>
    refusal(
      429,
      'rules_busy',
      "Too many of this account's requests are waiting for their rules to be evaluated. Retry after the delay in Retry-After.",
      'RATE_LIMITED',
      { retryAfterSeconds: 1 },
    ),
  rateLimited: (retryAfterSeconds: number) =>
    refusal(
      429,
      'rate_limited',
      "The endpoint's per-minute rate limit is used up. Retry after the delay in Retry-After.",
      'RATE_LIMITED',
      { retryAfterSeconds },
    ),
  /** Retry-After 60 is a retry hint, not the reset time (spec "Errors") */
  quotaExceeded: () =>
    refusal(
      429,
      'quota_exceeded',
      'The monthly accepted-event quota is used up. Retry after the delay in Retry-After.',
      'QUOTA_EXCEEDED',
      {
        retryAfterSeconds: SIXTY_SECONDS,
      },
    ),
  /**
   * Another request with the same Idempotency-Key is still being decided. No row: the first
   * request's row stands for the event. Retry-After 1: the first is decided within a second or so.
   */
  idempotencyKeyInUse: () =>
    refusal(
      409,
      'idempotency_key_in_use',
      'A request with this Idempotency-Key is still being processed. Retry after the delay in Retry-After.',
      null,
      { retryAfterSeconds: 1 },
    ),
  /** the same, for a provider's delivery id: the first request is still being decided */
  deliveryIdInUse: () =>
    refusal(
      409,
      'delivery_id_in_use',
      'A request with this provider delivery id is still being processed. Retry after the delay in Retry-After.',
      null,
      { retryAfterSeconds: 1 },
    ),
  deliveryQueueUnavailable: () =>
    refusal(
      503,
      'delivery_queue_unavailable',
      'The event was not accepted because delivery processing is unavailable. Retry after the delay in Retry-After.',
      'DELIVERY_QUEUE_UNAVAILABLE',
      {
        retryAfterSeconds: 5,
      },
    ),
};
