import type { AttemptResult } from '../../kind';
import type { S3PutOutcome } from '../../transports/s3';
import { CHECK_KEYS, classifyAwsFailure } from '../aws-outcome';
import type { AwsOutcomeRules } from '../aws-outcome';

/**
 * How S3 errors are read (API reference "Error responses", PutObject's). `fixes`: what the same
 * target gets again until its operator changes the keys, their permissions, the bucket, or the
 * endpoint and region.
 */
const S3_RULES: AwsOutcomeRules = {
  service: 'S3',
  operation: 'PutObject',
  fixes: {
    InvalidAccessKeyId: `S3 does not know the access key (InvalidAccessKeyId): ${CHECK_KEYS}`,
    SignatureDoesNotMatch: `the request signature does not match (SignatureDoesNotMatch): ${CHECK_KEYS}, and the region`,
    AccessDenied: 'the credentials may not write to this bucket (AccessDenied): allow them s3:PutObject on it',
    AllAccessDisabled: 'all access to this bucket is disabled (AllAccessDisabled)',
    AccountProblem: "the bucket owner's account cannot be used (AccountProblem)",
    NoSuchBucket: 'the bucket does not exist (NoSuchBucket): create it, or check bucket and endpoint',
    AuthorizationHeaderMalformed: 'the region does not match the bucket (AuthorizationHeaderMalformed): check region',
    PermanentRedirect: 'the bucket is served by another endpoint (PermanentRedirect): check endpoint and region',
    InvalidBucketName: 'the server refuses the bucket name (InvalidBucketName): check bucket',
  },
  throttled: new Set(['SlowDown', 'ServiceUnavailable', 'Throttling', 'ThrottlingException', 'RequestThrottled']),
  // a clock corrected from the answer; a body damaged in transit or read too slowly
  transient: new Set(['RequestTimeTooSkewed', 'RequestExpired', 'BadDigest', 'RequestTimeout', 'IncompleteBody']),
  refusedDelivery: (code) => code === 'EntityTooLarge' || code === 'KeyTooLongError',
};

/** How one PutObject ended (docs/targets-queues.md "S3-compatible object storage"): an ETag is a success. */
export function classifyS3Put(outcome: S3PutOutcome): AttemptResult {
  return 'etag' in outcome ? { result: 'success', status: null } : classifyAwsFailure(outcome.error, S3_RULES);
}
