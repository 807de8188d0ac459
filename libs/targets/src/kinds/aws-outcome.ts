import { classifyFailureCode } from '../http/failures';
import type { AttemptResult } from '../kind';
import type { AwsFailure } from '../transports/aws';
import { safeErrorText } from './template';

/** How one AWS-style service's errors are read (SQS, S3): the rest is the same for all. */
export interface AwsOutcomeRules {
  /** `SQS`, `S3` */
  service: string;
  /** `SendMessage`, `PutObject` */
  operation: string;
  /** codes the same target gets again until its operator changes something, each with its reason */
  fixes: Readonly<Record<string, string>>;
  /** the service's or the account's request rate is over its quota for now */
  throttled: ReadonlySet<string>;
  /** client errors that a later attempt can pass (a clock corrected from the answer, a body damaged in transit) */
  transient: ReadonlySet<string>;
  /** refused for this delivery's message or object (its size, its characters), not for the target */
  refusedDelivery(code: string, message: string): boolean;
}

/** what a refused key or signature tells the operator to check */
export const CHECK_KEYS = 'check access_key_id and secret_access_key';

/**
 * The services send no Retry-After: a throttled target waits at least this long, the schedule's
 * second step, instead of its first (a restart's).
 */
export const THROTTLED_RETRY_MS = 30_000;

/**
 * How a failed call ended (docs/targets-queues.md, per kind):
 * - a code in `fixes`, another client error, an SSRF-refused address or an untrusted certificate
 *   → permanent, the target flagged with the reason;
 * - refused for this delivery → permanent for it only;
 * - throttled → retry, at least THROTTLED_RETRY_MS later; a server error, a `transient` code, a
 *   refused, reset or timed-out connection → retry on the target's schedule.
 */
export function classifyAwsFailure(failure: AwsFailure, rules: AwsOutcomeRules): AttemptResult {
  const { code, message, status, fault } = failure;
  const { service } = rules;
  const fix = rules.fixes[code];
  if (fix) return { result: 'permanent', status: status ?? null, error: fix, flagTarget: true };
  if (rules.throttled.has(code))
    return {
      result: 'retry',
      status: status ?? null,
      error: `${service} throttled the requests (${code})`,
      retryAfterMs: THROTTLED_RETRY_MS,
    };
  if (status === undefined) {
    const failed = classifyFailureCode(code);
    if (failed === 'ssrf_blocked' || failed === 'untrusted_certificate')
      return { result: 'permanent', status: null, error: `${service} not dialled (${code})`, flagTarget: true };
    return { result: 'retry', status: null, error: `${service} unavailable (${safeErrorText(code, 40)})` };
  }
  // the server's own words, without any URL in them
  const said = `${safeErrorText(code, 60)}: ${safeErrorText(message)}`;
  if (rules.refusedDelivery(code, message))
    return { result: 'permanent', status, error: `${service} refused this delivery (${said})`, flagTarget: false };
  if (fault === 'server' || status >= 500 || rules.transient.has(code))
    return { result: 'retry', status, error: `${service} unavailable (${said})` };
  return { result: 'permanent', status, error: `${service} refused ${rules.operation} (${said})`, flagTarget: true };
}
