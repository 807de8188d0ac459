import net from 'node:net';
import type { Validation } from '@relay/contracts';
import type { CheckContext, KindDescription } from '../../describe/field';
import { checkDescribed } from '../../describe/validate';
import { awsAccessFields, checkAwsRegion } from '../aws-access';
import type { AwsAccessConfig } from '../aws-access';

/** An S3-compatible bucket target's settings (docs/targets-queues.md "S3-compatible object storage"). */
export interface S3Config extends AwsAccessConfig {
  /** `https://s3.<region>.amazonaws.com` or an S3-compatible server's origin */
  endpoint: string;
  bucket: string;
  /** `{{delivery_id}}` and the other KEY_VARIABLES; always holds the delivery id */
  key_template: string;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint host>/<key>` */
  path_style: boolean;
}

/** What a key template may name: the delivery's ids and the day it was received (UTC). */
export const KEY_VARIABLES = ['delivery_id', 'event_id', 'endpoint_id', 'date'] as const;
export const DEFAULT_KEY_TEMPLATE = 'relay/{{endpoint_id}}/{{date}}/{{delivery_id}}';
/** S3's key limit is 1,024 bytes; the ids and the date add at most 100 to a template */
const MAX_KEY_TEMPLATE = 900;
const TAG = /\{\{\s*([^{}]*?)\s*\}\}/g;
/**
 * Bucket names (S3 "General purpose bucket naming rules"): 3 to 63 lower-case letters, digits, dots
 * and hyphens, starting and ending with a letter or digit, no `..`, not an IP address.
 */
const BUCKET = /^(?!xn--)(?!.*\.\.)(?!\d+\.\d+\.\d+\.\d+$)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * The endpoint: an http(s) origin, nothing more (the bucket and key are Relay's to add). A host
 * that is an IP address or `localhost` has no subdomains for buckets: path-style is required.
 */
function checkEndpoint(value: string, ctx: CheckContext): undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.fail('endpoint must be a URL, e.g. https://s3.eu-west-1.amazonaws.com');
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') ctx.fail('endpoint must start with https:// or http://');
  else if (url.username !== '' || url.password !== '')
    ctx.fail('endpoint must not hold credentials: set access_key_id and secret_access_key');
  else if (url.pathname !== '/' || url.search !== '' || url.hash !== '')
    ctx.fail('endpoint must be an origin only (scheme, host and port): the bucket is its own setting');
  else {
    const bare = url.hostname.replace(/^\[|\]$/g, '');
    if ((net.isIP(bare) !== 0 || bare === 'localhost') && ctx.config.path_style !== true)
      ctx.fail('path_style must be on for an endpoint addressed by IP or localhost', 'config.path_style');
    checkAwsRegion('s3', url.hostname, 'endpoint', ctx);
  }
  return undefined;
}

/**
 * The object key of a delivery: it always names the delivery id, so a retry writes the same key
 * (overwrites) and never adds an object; only KEY_VARIABLES; no empty, `.` or `..` segment,
 * which some servers on file systems refuse or resolve.
 */
function checkKeyTemplate(value: string, ctx: CheckContext): undefined {
  const names = [...value.matchAll(TAG)].map((m) => m[1]!);
  const unknown = names.filter((n) => !(KEY_VARIABLES as readonly string[]).includes(n));
  if (unknown.length > 0)
    ctx.fail(`key_template may use only ${KEY_VARIABLES.map((v) => `{{${v}}}`).join(', ')}; not {{${unknown[0]}}}`);
  else if (!names.includes('delivery_id'))
    ctx.fail('key_template must contain {{delivery_id}}, so that a retry overwrites the same object');
  else if (value.split('/').some((segment) => segment === '' || segment === '.' || segment === '..'))
    ctx.fail('key_template must not start or end with /, nor have an empty, . or .. segment');
  return undefined;
}

/** Described once (docs/adding-a-target-kind.md). */
export const s3Description: KindDescription = {
  label: 'S3-compatible object storage',
  help: 'Each delivery written as one object (PutObject) whose key holds the delivery id, so a retry overwrites it; docs/targets-queues.md.',
  fields: {
    endpoint: {
      type: 'string',
      label: 'Endpoint URL',
      required: true,
      trim: true,
      maxLength: 2048,
      example: 'https://s3.eu-west-1.amazonaws.com',
      help: "the service's origin: AWS's regional endpoint or an S3-compatible server's",
      check: checkEndpoint,
    },
    bucket: {
      type: 'string',
      label: 'Bucket',
      required: true,
      trim: true,
      pattern: BUCKET.source,
      example: 'webhooks-archive',
      help: 'a bucket that exists; Relay does not create it',
      message: 'bucket must be 3 to 63 lower-case letters, digits, . or -, starting and ending with a letter or digit',
    },
    key_template: {
      type: 'string',
      label: 'Object key template',
      default: DEFAULT_KEY_TEMPLATE,
      trim: true,
      maxLength: MAX_KEY_TEMPLATE,
      example: 'webhooks/{{date}}/{{delivery_id}}.json',
      help: 'must contain {{delivery_id}}; may use {{event_id}}, {{endpoint_id}} and {{date}} (YYYY-MM-DD, UTC)',
      pattern: '^[^\\x00-\\x1f\\x7f\\\\]*$',
      patternMessage: 'key_template must not contain control characters or \\',
      check: checkKeyTemplate,
    },
    ...awsAccessFields('s3:PutObject on the bucket'),
    path_style: {
      type: 'boolean',
      label: 'Path-style requests',
      default: false,
      help: 'endpoint/bucket/key instead of bucket.endpoint/key; needed by most S3-compatible servers and for an IP address',
    },
  },
};

/** Save-time checks without sealing (tests of the description). */
export function validateS3Config(input: unknown): Validation<S3Config> {
  return checkDescribed(s3Description, input) as Validation<S3Config>;
}
