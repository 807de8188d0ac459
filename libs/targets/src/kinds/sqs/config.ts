import type { Validation } from '@relay/contracts';
import type { CheckContext, KindDescription } from '../../describe/field';
import { checkDescribed } from '../../describe/validate';

/** An Amazon SQS (or SQS-compatible) queue target's settings (docs/targets-queues.md "Amazon SQS"). */
export interface SqsConfig {
  /** `https://sqs.<region>.amazonaws.com/<account>/<queue>`; its origin is the endpoint dialled */
  queue_url: string;
  region: string;
  /** sealed at rest */
  access_key_id: string;
  /** sealed at rest */
  secret_access_key: string;
  /** FIFO queues only: a template (kinds/template.ts `{{path}}`) rendered against the payload */
  message_group_id: string;
}

/**
 * SQS queue names: 1 to 80 letters, digits, `-` and `_`, a FIFO queue's ending in `.fifo`
 * (CreateQueue, "QueueName").
 */
const QUEUE_NAME = /^[A-Za-z0-9_-]{1,75}(?:\.fifo)?$|^[A-Za-z0-9_-]{1,80}$/;
/** the endpoint of a queue on AWS names its region: `sqs.eu-west-1.amazonaws.com` */
const AWS_HOST = /^sqs\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/;

/** The queue's name, the last segment of its URL; a FIFO queue's ends in `.fifo`. */
export function queueNameOf(queueUrl: string): string {
  return new URL(queueUrl).pathname.split('/').pop() ?? '';
}

export const isFifoQueue = (queueUrl: string): boolean => queueNameOf(queueUrl).endsWith('.fifo');

/**
 * The queue URL SQS shows for a queue: http(s), a host, a path ending in the queue's name. The
 * rules across fields are checked here, on the one field always present: a FIFO queue needs a
 * message group, a standard queue takes none, and a queue on AWS is in the region its host names.
 */
function checkQueueUrl(value: string, ctx: CheckContext): undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.fail('queue_url must be a URL, e.g. https://sqs.eu-west-1.amazonaws.com/123456789012/orders');
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') ctx.fail('queue_url must start with https:// or http://');
  else if (url.username !== '' || url.password !== '')
    ctx.fail('queue_url must not hold credentials: set access_key_id and secret_access_key');
  else if (url.search !== '' || url.hash !== '') ctx.fail('queue_url must not have a query or fragment');
  else if (!QUEUE_NAME.test(queueNameOf(value)))
    ctx.fail('queue_url must end in the queue name: 1 to 80 letters, digits, - or _, a FIFO queue ending in .fifo');
  else {
    const group = ctx.config.message_group_id;
    const hasGroup = typeof group === 'string' && group.trim() !== '';
    if (isFifoQueue(value) && !hasGroup)
      ctx.fail(
        'message_group_id is required for a FIFO queue (.fifo), e.g. {{customer.id}}',
        'config.message_group_id',
      );
    if (!isFifoQueue(value) && hasGroup)
      ctx.fail('message_group_id applies to FIFO queues only (a queue URL ending in .fifo)', 'config.message_group_id');
    const region = AWS_HOST.exec(url.hostname)?.[1];
    if (region !== undefined && String(ctx.config.region ?? '').trim() !== region)
      ctx.fail(`region must be ${region}, the region of the queue URL`, 'config.region');
  }
  return undefined;
}

/** Described once (docs/adding-a-target-kind.md). */
export const sqsDescription: KindDescription = {
  label: 'Amazon SQS queue',
  help: 'Each delivery sent to an SQS (or SQS-compatible) queue as one message; on a FIFO queue deduplicated by the delivery id; docs/targets-queues.md.',
  fields: {
    queue_url: {
      type: 'string',
      label: 'Queue URL',
      required: true,
      trim: true,
      maxLength: 2048,
      example: 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders',
      help: 'as SQS shows it; its host is the endpoint Relay calls, so an SQS-compatible server works too. A FIFO queue ends in .fifo',
      check: checkQueueUrl,
    },
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
      help: 'of an IAM user or role allowed sqs:SendMessage on the queue; stored sealed, never shown',
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
    message_group_id: {
      type: 'string',
      label: 'Message group (FIFO queues)',
      default: '',
      trim: true,
      maxLength: 1024,
      example: '{{customer.id}}',
      help: '{{path.to.field}} over the payload; required for a FIFO queue, whose messages of one group are kept in order. Empty once rendered: the endpoint id',
      pattern: '^[^\\r\\n]*$',
      patternMessage: 'message_group_id must not contain a line break',
    },
  },
};

/** Save-time checks without sealing (tests of the description). */
export function validateSqsConfig(input: unknown): Validation<SqsConfig> {
  return checkDescribed(sqsDescription, input) as Validation<SqsConfig>;
}
