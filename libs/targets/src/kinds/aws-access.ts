import type { CheckContext, Fields } from '../describe/field';
import type { SecretSealer } from '../kind';
import { TargetConfigError } from '../kind';

/*
 * What the kinds on AWS-style APIs (SQS, S3) share: the region requests are signed for and the
 * access key that signs them, described once; the AWS host's own region checked against it; and
 * the sealed key opened per attempt.
 */

/** The settings of an AWS-style kind that sign its requests (SigV4). */
export interface AwsAccessConfig {
  region: string;
  /** sealed at rest */
  access_key_id: string;
  /** sealed at rest */
  secret_access_key: string;
}

/** The region and access key fields, in the order the form shows them; `permission` says what the key needs. */
export function awsAccessFields(permission: string): Fields {
  return {
    region: {
      type: 'string',
      label: 'Region',
      required: true,
      trim: true,
      pattern: '^[a-z0-9-]{1,40}$',
      example: 'eu-west-1',
      help: 'the AWS region the requests are signed for (SigV4)',
      message: 'region must be 1 to 40 lower-case letters, digits or -, e.g. eu-west-1',
    },
    access_key_id: {
      type: 'string',
      label: 'Access key ID',
      required: true,
      credential: true,
      trim: true,
      pattern: '^[\\x21-\\x7e]{1,128}$',
      example: 'AKIAIOSFODNN7EXAMPLE',
      help: `of an IAM user or role allowed ${permission}; stored sealed, never shown`,
      message: 'access_key_id must be 1 to 128 printable characters without spaces',
    },
    secret_access_key: {
      type: 'string',
      label: 'Secret access key',
      required: true,
      credential: true,
      trim: true,
      pattern: '^[\\x21-\\x7e]{1,256}$',
      help: 'a secret: stored sealed, never shown',
      message: 'secret_access_key must be 1 to 256 printable characters without spaces',
    },
  };
}

/**
 * A host on AWS names its region (`sqs.eu-west-1.amazonaws.com`, `s3.eu-west-1.amazonaws.com`):
 * the requests must be signed for that one, or AWS refuses every one of them.
 */
export function checkAwsRegion(service: string, hostname: string, what: string, ctx: CheckContext): void {
  const region = new RegExp(`^${service}[.-]([a-z0-9-]+)\\.amazonaws\\.com(?:\\.cn)?$`).exec(hostname)?.[1];
  if (region !== undefined && String(ctx.config.region ?? '').trim() !== region)
    ctx.fail(`region must be ${region}, the region of the ${what}`, 'config.region');
}

/** The target's sealed key, opened; one no configured key opens is its configuration's problem. */
export function openAwsKeys(
  secrets: SecretSealer,
  config: AwsAccessConfig,
  service: string,
): { region: string; accessKeyId: string; secretAccessKey: string } {
  try {
    return {
      region: config.region,
      accessKeyId: secrets.decrypt(config.access_key_id),
      secretAccessKey: secrets.decrypt(config.secret_access_key),
    };
  } catch {
    throw new TargetConfigError(
      'SECRET_UNREADABLE',
      `the ${service} credentials cannot be opened with any configured key`,
    );
  }
}
