import { classifyFailureCode } from '../../http/failures';
import type { AttemptResult } from '../../kind';
import type { SqsSendOutcome } from '../../transports/sqs';
import { safeErrorText } from '../template';

const CREDENTIALS = 'check access_key_id and secret_access_key';

/**
 * SQS errors (API reference "Common Errors" and SendMessage's) that the same target gets again
 * until its operator changes something: the credentials, their permissions, the queue, its KMS
 * key. Both names of a query-compatible error are listed (`AWS.SimpleQueueService.NonExistentQueue`
 * is `QueueDoesNotExist`).
 */
const TARGET_FIXES: Readonly<Record<string, string>> = {
  InvalidClientTokenId: `SQS does not know the access key (InvalidClientTokenId): ${CREDENTIALS}`,
  UnrecognizedClientException: `SQS does not know the access key (UnrecognizedClientException): ${CREDENTIALS}`,
  SignatureDoesNotMatch: `the request signature does not match (SignatureDoesNotMatch): ${CREDENTIALS}, and the region`,
  IncompleteSignature: `the request signature is incomplete (IncompleteSignature): ${CREDENTIALS}`,
  AccessDenied: 'the credentials may not send to this queue (AccessDenied): allow them sqs:SendMessage on it',
  AccessDeniedException: 'the credentials may not send to this queue (AccessDenied): allow them sqs:SendMessage on it',
  QueueDoesNotExist: 'the queue does not exist (QueueDoesNotExist): check queue_url and region',
  'AWS.SimpleQueueService.NonExistentQueue': 'the queue does not exist (QueueDoesNotExist): check queue_url and region',
  InvalidAddress: 'the queue URL is not a queue of this endpoint (InvalidAddress): check queue_url',
  InvalidSecurity: 'the queue accepts HTTPS requests only (InvalidSecurity): use an https:// queue_url',
  KmsAccessDenied: "the queue's KMS key refuses the credentials (KmsAccessDenied): allow them kms:GenerateDataKey",
  KmsDisabled: "the queue's KMS key is disabled (KmsDisabled)",
  KmsNotFound: "the queue's KMS key does not exist (KmsNotFound)",
  UnsupportedOperation: 'the queue does not take SendMessage (UnsupportedOperation)',
  'AWS.SimpleQueueService.UnsupportedOperation': 'the queue does not take SendMessage (UnsupportedOperation)',
};

/** The queue's or the account's request rate, or its KMS key's, is over its quota for now. */
const THROTTLED = new Set(['RequestThrottled', 'ThrottlingException', 'Throttling', 'KmsThrottled']);
/**
 * SQS sends no Retry-After: a throttled queue waits at least this long, the schedule's second
 * step, instead of its first (a restart's).
 */
export const THROTTLED_RETRY_MS = 30_000;

/** A message SQS refuses for its size or its characters: this delivery's problem, not the target's. */
function refusedMessage(code: string, message: string): boolean {
  if (code === 'InvalidMessageContents') return true;
  return (
    (code === 'InvalidParameterValue' || code === 'InvalidAttributeValue') &&
    /MessageTooLong|too long|must be shorter|InvalidMessageContents/i.test(message)
  );
}

/**
 * How one SendMessage ended (docs/targets-queues.md "Amazon SQS"):
 * - a message id → success;
 * - a code in TARGET_FIXES, another client error, an SSRF-refused address or an untrusted
 *   certificate → permanent, the target flagged with the reason;
 * - a message refused for its size or contents → permanent for this delivery only;
 * - throttling → retry, at least THROTTLED_RETRY_MS later; a server error, a clock-skew
 *   refusal (the client corrects its clock from the answer), a refused, reset or timed-out
 *   connection → retry on the target's schedule.
 */
export function classifySqsSend(outcome: SqsSendOutcome): AttemptResult {
  if ('messageId' in outcome) return { result: 'success', status: null };
  const { code, message, status, fault } = outcome.error;
  const fix = TARGET_FIXES[code];
  if (fix) return { result: 'permanent', status: status ?? null, error: fix, flagTarget: true };
  if (THROTTLED.has(code))
    return {
      result: 'retry',
      status: status ?? null,
      error: `SQS throttled the queue (${code})`,
      retryAfterMs: THROTTLED_RETRY_MS,
    };
  if (status === undefined) {
    const failure = classifyFailureCode(code);
    if (failure === 'ssrf_blocked' || failure === 'untrusted_certificate')
      return { result: 'permanent', status: null, error: `SQS not dialled (${code})`, flagTarget: true };
    return { result: 'retry', status: null, error: `SQS unavailable (${safeErrorText(code, 40)})` };
  }
  const said = `${safeErrorText(code, 60)}: ${safeErrorText(message)}`;
  if (refusedMessage(code, message))
    return { result: 'permanent', status, error: `SQS refused the message (${said})`, flagTarget: false };
  if (fault === 'server' || status >= 500 || /^(RequestExpired|RequestTimeTooSkewed)$/.test(code))
    return { result: 'retry', status, error: `SQS unavailable (${said})` };
  return { result: 'permanent', status, error: `SQS refused SendMessage (${said})`, flagTarget: true };
}
