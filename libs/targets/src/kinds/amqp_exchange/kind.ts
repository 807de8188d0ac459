import type { DeliveryMessageV1 } from '@relay/contracts';
import { describedConfig } from '../../describe/kind-config';
import type { KindInfo, SecretSealer, TransportKind } from '../../kind';
import { PayloadError } from '../../kind';
import { ownerOf } from '../../transports/pool';
import type { AmqpLink, AmqpMessage } from '../../transports/amqp';
import { readPayload, renderTemplate, templateData } from '../template';
import { QUEUE_RETRY_SCHEDULE_MS } from '../queue-schedule';
import { openServerUrl } from '../server-url';
import { classifyAmqpPublish } from './classify';
import { amqpExchangeDescription, MAX_SHORTSTR_BYTES } from './config';
import type { AmqpExchangeConfig } from './config';

/**
 * On the outputs channel with the other broker kinds, and their schedule: a broker restart or
 * failover is back within seconds, an outage within the hour (docs/targets-queues.md). `resendable`
 * is false: a publish whose confirm was lost may have been routed, and the next attempt publishes
 * again (at least once; consumers drop a repeated `message_id`).
 */
export const amqpExchangeInfo: KindInfo = {
  kind: 'amqp_exchange',
  channel: 'outputs',
  defaultRetryScheduleMs: QUEUE_RETRY_SCHEDULE_MS,
  description: amqpExchangeDescription,
  resendable: false,
};

export interface AmqpExchangeKindDeps {
  secrets: SecretSealer;
  /** only the outputs deliverer has one; elsewhere the kind only validates and shows configs */
  amqp?: AmqpLink;
}

/** The message of one delivery: the same on every attempt, its `message_id` the delivery id. */
export function amqpMessage(config: AmqpExchangeConfig, d: DeliveryMessageV1): AmqpMessage {
  const routingKey = renderTemplate(config.routing_key, templateData(readPayload(d.payload)));
  if (Buffer.byteLength(routingKey) > MAX_SHORTSTR_BYTES)
    throw new PayloadError('ROUTING_KEY_TOO_LONG', `the rendered routing key is over ${MAX_SHORTSTR_BYTES} bytes`);
  return {
    exchange: config.exchange,
    routingKey,
    body: Buffer.from(d.payload.body_base64, 'base64'),
    messageId: d.delivery_id,
    ...(d.payload.content_type ? { contentType: d.payload.content_type } : {}),
    timestamp: Math.floor(Date.parse(d.received_at) / 1000),
    headers: { 'relay-event-id': d.event_id, 'relay-endpoint-id': d.endpoint_id },
  };
}

/** Each delivery published to the target's exchange (docs/targets-queues.md "RabbitMQ"). */
export function createAmqpExchangeKind(deps: AmqpExchangeKindDeps): TransportKind<AmqpExchangeConfig> {
  return {
    ...amqpExchangeInfo,
    ...describedConfig<AmqpExchangeConfig>(amqpExchangeDescription, deps.secrets),
    deliver: async (config, d) => {
      if (!deps.amqp) return { result: 'retry', status: null, error: 'this deliverer cannot reach AMQP brokers' };
      const message = amqpMessage(config, d);
      const url = openServerUrl(deps.secrets, config.url, 'AMQP');
      return classifyAmqpPublish(await deps.amqp.publish(ownerOf(d), url, message));
    },
  };
}
