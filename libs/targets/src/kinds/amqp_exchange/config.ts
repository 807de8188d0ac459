import type { Validation } from '@relay/contracts';
import type { CheckContext, KindDescription } from '../../describe/field';
import { checkDescribed } from '../../describe/validate';
import { checkServerUrl } from '../server-url';

/** A RabbitMQ (AMQP 0-9-1) exchange target's settings (docs/targets-queues.md "RabbitMQ"). */
export interface AmqpExchangeConfig {
  /** `amqp://` or `amqps://` (TLS) with user, password and virtual host; sealed at rest */
  url: string;
  exchange: string;
  /** a template (kinds/template.ts `{{path}}`) rendered against the payload */
  routing_key: string;
}

/** AMQP 0-9-1 `shortstr`: exchange names and routing keys are at most 255 bytes. */
export const MAX_SHORTSTR_BYTES = 255;
/** Letters, digits and `-_.:/`, as RabbitMQ's own tools show them; `amq.*` names are the broker's. */
const EXCHANGE = /^(?!amq\.)[A-Za-z0-9_.:/-]{1,255}$/;

/**
 * The URL forms amqplib dials: a host and at most one path segment, the virtual host (`/` when
 * absent, `%2F` for a name with a slash); no query (heartbeat and frame size are Relay's). The
 * message never echoes the URL, which holds the password.
 */
export function checkAmqpUrl(value: string, ctx: CheckContext): undefined {
  return checkServerUrl(value, ctx, {
    schemes: ['amqp:', 'amqps:'],
    notAUrl: 'url must be an amqp:// or amqps:// URL, e.g. amqps://user:password@rabbit.example.com/vhost',
    pathProblem: (pathname) =>
      pathname.slice(1).includes('/') ? 'url path may only be the virtual host (a slash in it as %2F)' : null,
  });
}

function checkRoutingKey(value: string, ctx: CheckContext): undefined {
  if (Buffer.byteLength(value) > MAX_SHORTSTR_BYTES)
    ctx.fail(`routing_key must be at most ${MAX_SHORTSTR_BYTES} bytes`);
  return undefined;
}

/** Described once (docs/adding-a-target-kind.md). */
export const amqpExchangeDescription: KindDescription = {
  label: 'RabbitMQ exchange (AMQP 0-9-1)',
  help: 'Each delivery published to an exchange as a persistent message, confirmed by the broker, its message_id the delivery id; docs/targets-queues.md.',
  fields: {
    url: {
      type: 'string',
      label: 'AMQP URL',
      required: true,
      credential: true,
      trim: true,
      maxLength: 2048,
      example: 'amqps://relay:password@rabbit.example.com/orders',
      help: 'amqp:// or amqps:// (TLS) with user, password and virtual host; a secret: stored sealed, never shown',
      check: checkAmqpUrl,
    },
    exchange: {
      type: 'string',
      label: 'Exchange',
      required: true,
      trim: true,
      pattern: EXCHANGE.source,
      example: 'webhooks',
      help: 'an exchange that exists on the broker; Relay does not declare it',
      message: 'exchange must be 1 to 255 letters, digits or -_.:/ and not start with amq.',
    },
    routing_key: {
      type: 'string',
      label: 'Routing key template (optional)',
      default: '',
      example: 'orders.{{type}}',
      help: '{{path.to.field}} over the payload; at most 255 bytes once rendered',
      pattern: '^[^\\r\\n]*$',
      patternMessage: 'routing_key must not contain a line break',
      check: checkRoutingKey,
    },
  },
};

export function validateAmqpExchangeConfig(input: unknown): Validation<AmqpExchangeConfig> {
  return checkDescribed(amqpExchangeDescription, input) as Validation<AmqpExchangeConfig>;
}
