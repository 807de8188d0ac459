import type { Validation } from '@relay/contracts';
import type { CheckContext, KindDescription } from '../../describe/field';
import { checkDescribed } from '../../describe/validate';
import { awsAccessFields, checkAwsRegion } from '../aws-access';
import type { AwsAccessConfig } from '../aws-access';

/** An Amazon SQS (or SQS-compatible) queue target's settings (docs/targets-queues.md "Amazon SQS"). */
export interface SqsConfig extends AwsAccessConfig {
  /** `https://sqs.<region>.amazonaws.com/<account>/<queue>`; its origin is the endpoint dialled */
  queue_url: string;
  /** FIFO queues only: a template (kinds/template.ts `{{path}}`) rendered against the payload */
  message_group_id: string;
}

/**
 * SQS queue names: 1 to 80 letters, digits, `-` and `_`, a FIFO queue's ending in `.fifo`
 * (CreateQueue, "QueueName").
 */
const QUEUE_NAME = /^[A-Za-z0-9_-]{1,75}(?:\.fifo)?$|^[A-Za-z0-9_-]{1,80}$/;

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
    checkAwsRegion('sqs', url.hostname, 'queue URL', ctx);
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
    ...awsAccessFields('sqs:SendMessage on the queue'),
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
