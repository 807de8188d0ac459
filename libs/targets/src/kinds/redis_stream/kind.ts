import type { DeliveryMessageV1 } from '@relay/contracts';
import { describedConfig } from '../../describe/kind-config';
import type { KindInfo, SecretSealer, TransportKind } from '../../kind';
import { ownerOf } from '../../transports/pool';
import type { RedisStreamsLink, StreamEntry } from '../../transports/redis';
import { QUEUE_RETRY_SCHEDULE_MS } from '../queue-schedule';
import { openServerUrl } from '../server-url';
import { classifyRedisAppend } from './classify';
import { redisStreamDescription } from './config';
import type { RedisStreamConfig } from './config';

/**
 * On the outputs channel (docs/architecture.md "Connection-holding kinds"): its deliverer runs
 * the kinds whose attempt is not one POST, with their transports. `resendable` is false: an XADD
 * whose answer was lost may have appended, and the next attempt appends again (at least once;
 * consumers drop a repeated `delivery_id`).
 */
export const redisStreamInfo: KindInfo = {
  kind: 'redis_stream',
  channel: 'outputs',
  defaultRetryScheduleMs: QUEUE_RETRY_SCHEDULE_MS,
  description: redisStreamDescription,
  resendable: false,
};

export interface RedisStreamKindDeps {
  secrets: SecretSealer;
  /** only the outputs deliverer has one; elsewhere the kind only validates and shows configs */
  redis?: RedisStreamsLink;
}

/** The stream entry of one delivery: the same fields, in the same order, on every attempt. */
export function streamEntry(config: RedisStreamConfig, d: DeliveryMessageV1): StreamEntry {
  return {
    stream: config.stream,
    maxLength: config.max_length,
    fields: [
      ['delivery_id', d.delivery_id],
      ['event_id', d.event_id],
      ['endpoint_id', d.endpoint_id],
      ['received_at', d.received_at],
      // empty when the request had no body
      ['content_type', d.payload.content_type ?? ''],
      ['body', Buffer.from(d.payload.body_base64, 'base64')],
    ],
  };
}

/** Each delivery appended to the target's stream with XADD (docs/targets-queues.md "Redis Streams"). */
export function createRedisStreamKind(deps: RedisStreamKindDeps): TransportKind<RedisStreamConfig> {
  return {
    ...redisStreamInfo,
    ...describedConfig<RedisStreamConfig>(redisStreamDescription, deps.secrets),
    deliver: async (config, d) => {
      if (!deps.redis) return { result: 'retry', status: null, error: 'this deliverer cannot reach Redis servers' };
      const url = openServerUrl(deps.secrets, config.url, 'Redis');
      return classifyRedisAppend(await deps.redis.append(ownerOf(d), url, streamEntry(config, d)));
    },
  };
}
