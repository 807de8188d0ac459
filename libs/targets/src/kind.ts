import type { DeliveryChannel, DeliveryMessageV1, Validation } from '@relay/contracts';
import type { KindDescription } from './describe/field';
import type { TargetLimits } from './describe/limits';
import type { PoolOwner } from './transports/pool';

// described with the fields it seals (describe/field.ts), which must not import this file back
export type { SecretSealer } from './describe/field';

/**
 * One target's TLS identity and trust (a webhook's mutual TLS): the sender keeps its connections
 * apart from every other target's, so a client certificate is only ever shown to its own target.
 */
export interface ClientTls {
  owner: PoolOwner;
  /** PEM, the leaf first; with `key` */
  cert?: string;
  /** PEM, opened from its sealed form for this attempt only */
  key?: string;
  /** PEM: when set, the only trust anchors for the server's certificate */
  ca?: string;
}

/** The HTTP request one delivery attempt sends. Always POST. */
export interface OutboundRequest {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  tls?: ClientTls;
}

/** What came back, trimmed to what classification needs. */
export interface ResponseSummary {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** the first few KB of the body, as text */
  body: string;
}

export interface NetworkFailure {
  /** e.g. ETIMEDOUT, ECONNREFUSED, SSRF_BLOCKED, CERT_INVALID */
  code: string;
  message: string;
}

/**
 * What one send came to; `resends`: how many times the request was sent again inside it after a
 * reused connection was reset before any answer (absent when none): the receiver may have got
 * each of them.
 */
export type SendOutcome = ({ response: ResponseSummary } | { error: NetworkFailure }) & {
  durationMs: number;
  resends?: number;
};

/**
 * How one attempt ended. `retry` may carry the destination's own delay hint (Retry-After,
 * a chat platform's `retry_after`); `permanent` with `flagTarget` marks a destination that
 * is gone (Discord 10015, HTTP 410) so operators see it. `status` is null where the destination
 * answers without a status code (a broker's acknowledgement, a network failure).
 */
export type AttemptResult =
  | { result: 'success'; status: number | null }
  | { result: 'retry'; status: number | null; error: string; retryAfterMs?: number }
  | { result: 'permanent'; status: number | null; error: string; flagTarget: boolean }
  /**
   * nothing was sent: the kind keeps the delivery itself until its destination can take it (a CLI
   * session target's backlog, docs/cli.md); recorded as retrying with no next attempt, not retried
   * by the deliverer and not counted by the breaker
   */
  | { result: 'kept'; status: null; error: string };

/**
 * What is known of a kind without building it (building may need secrets): enough to route its
 * deliveries and to plan the retry tiers of its channel.
 */
export interface KindInfo {
  /** stored in the target record, e.g. `webhook` */
  readonly kind: string;
  /** which deliverer's queue carries its deliveries */
  readonly channel: DeliveryChannel;
  /**
   * Delays between attempts (ms) for a target that sets no `retry_schedule_ms`: entry i is the
   * wait before attempt i + 2 (schedule.ts). Its channel's default retry tiers are derived from it.
   */
  readonly defaultRetryScheduleMs: readonly number[];
  /**
   * Every setting of its config, once, as data (describe/field.ts): save-time validation, the
   * masked view, the OpenAPI schemas and the dashboard's forms all derive from it.
   */
  readonly description: KindDescription;
  /**
   * The platform's published limit, followed by a target that sets no `limits` (chat platforms,
   * Google Sheets; docs/delivery-limits.md cites each). Absent: no limit.
   */
  readonly defaultLimits?: TargetLimits;
  /**
   * Whether its attempt's request may be sent again inside the attempt when a reused kept-alive
   * connection is reset before any answer (http/send.ts): the receiver may then get it twice.
   * True where that is as safe as the next attempt would be (webhooks dedupe on
   * X-Relay-Delivery-Id; a chat platform gets the same message either way), and every request
   * sent is counted in the attempt's record (`resends`). False for a request that adds
   * something each time it arrives and that a later attempt can check for (a Sheets row): the
   * attempt ends ambiguous, a retry, and the next attempt looks for the delivery first.
   */
  readonly resendable: boolean;
}

/** What every kind has, whatever carries its attempts: its config's validation and view. */
interface KindConfigHandling<C = any> extends KindInfo {
  /** save-time validation; returns the normalized config to store */
  validateConfig(input: unknown): Validation<C>;
  /** the config as the management API may show it: no secret values */
  publicConfig(config: C): Record<string, unknown>;
  /**
   * For kinds whose stored configs may still hold a credential from before it was sealed: the
   * config with it sealed, or null when there is nothing to seal. Run by the management API's
   * `seal-target-secrets` command.
   */
  sealPlaintext?(config: C): C | null;
}

/**
 * One target kind whose attempt is one HTTP POST, sent by the deliverer's SSRF-guarded sender.
 * Everything kind-specific lives behind this interface: adding a kind is one folder
 * implementing it plus one line in the catalog (catalog.ts).
 */
export interface TargetKind<C = any> extends KindConfigHandling<C> {
  /** the request for one attempt of one delivery */
  buildRequest(config: C, delivery: DeliveryMessageV1): OutboundRequest;
  classify(outcome: SendOutcome): AttemptResult;
  deliver?: undefined;
}

/**
 * A kind whose attempt is not one POST: an email through the operator's SMTP
 * relay, a row appended with the Sheets API after a token exchange. It sends through its own
 * transport and classifies what came back; the deliverer records, retries and flags as for any
 * kind. It throws TargetConfigError / PayloadError like `buildRequest` does.
 */
export interface TransportKind<C = any> extends KindConfigHandling<C> {
  deliver(config: C, delivery: DeliveryMessageV1): Promise<AttemptResult>;
}

/** Any kind the catalog holds. */
export type AnyTargetKind = TargetKind | TransportKind;

/**
 * A stored target config that cannot produce a request any more (Enforce HTTPS on a
 * non-HTTPS URL, a secret no configured key can open). Thrown by `buildRequest`; the
 * delivery handler turns it into a permanent failure that flags the target.
 */
export class TargetConfigError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TargetConfigError';
  }
}

/**
 * A delivery's payload from which this kind cannot build a request (a JSON document nested too
 * deeply to serialise into a chat message). Thrown by `buildRequest`; the delivery handler
 * records a permanent failure. The payload is the sender's, not the target's, so the target is
 * not flagged: the next payload may be fine.
 */
export class PayloadError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PayloadError';
  }
}
