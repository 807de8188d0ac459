import type { AttemptResult } from '../../kind';
import type { SqsSendOutcome } from '../../transports/sqs';
import { CHECK_KEYS, classifyAwsFailure } from '../aws-outcome';
import type { AwsOutcomeRules } from '../aws-outcome';

/**
 * How SQS errors are read (API reference "Common Errors" and SendMessage's). `fixes`: what the
 * same target gets again until its operator changes the credentials, their permissions, the
 * queue or its KMS key; both names of a query-compatible error are listed
 * (`AWS.SimpleQueueService.NonExistentQueue` is `QueueDoesNotExist`).
 */
const SQS_RULES: AwsOutcomeRules = {
  service: 'SQS',
  operation: 'SendMessage',
  fixes: {
    InvalidClientTokenId: `SQS does not know the access key (InvalidClientTokenId): ${CHECK_KEYS}`,
    UnrecognizedClientException: `SQS does not know the access key (UnrecognizedClientException): ${CHECK_KEYS}`,
    SignatureDoesNotMatch: `the request signature does not match (SignatureDoesNotMatch): ${CHECK_KEYS}, and the region`,
    IncompleteSignature: `the request signature is incomplete (IncompleteSignature): ${CHECK_KEYS}`,
    AccessDenied: 'the credentials may not send to this queue (AccessDenied): allow them sqs:SendMessage on it',
    AccessDeniedException:
      'the credentials may not send to this queue (AccessDenied): allow them sqs:SendMessage on it',
    QueueDoesNotExist: 'the queue does not exist (QueueDoesNotExist): check queue_url and region',
    'AWS.SimpleQueueService.NonExistentQueue':
      'the queue does not exist (QueueDoesNotExist): check queue_url and region',
    InvalidAddress: 'the queue URL is not a queue of this endpoint (InvalidAddress): check queue_url',
    InvalidSecurity: 'the queue accepts HTTPS requests only (InvalidSecurity): use an https:// queue_url',
    KmsAccessDenied: "the queue's KMS key refuses the credentials (KmsAccessDenied): allow them kms:GenerateDataKey",
    KmsDisabled: "the queue's KMS key is disabled (KmsDisabled)",
    KmsNotFound: "the queue's KMS key does not exist (KmsNotFound)",
    UnsupportedOperation: 'the queue does not take SendMessage (UnsupportedOperation)',
    'AWS.SimpleQueueService.UnsupportedOperation': 'the queue does not take SendMessage (UnsupportedOperation)',
  },
  throttled: new Set(['RequestThrottled', 'ThrottlingException', 'Throttling', 'KmsThrottled']),
  // the client corrects its clock from a skew refusal
  transient: new Set(['RequestExpired', 'RequestTimeTooSkewed']),
  refusedDelivery: (code, message) =>
    code === 'InvalidMessageContents' ||
    ((code === 'InvalidParameterValue' || code === 'InvalidAttributeValue') &&
      /MessageTooLong|too long|must be shorter|InvalidMessageContents/i.test(message)),
};

/** How one SendMessage ended (docs/targets-queues.md "Amazon SQS"): a message id is a success. */
export function classifySqsSend(outcome: SqsSendOutcome): AttemptResult {
  return 'messageId' in outcome ? { result: 'success', status: null } : classifyAwsFailure(outcome.error, SQS_RULES);
}
