import { consumeDecoded } from '@relay/broker';
import type { BrokerConnection, QueueConsumer } from '@relay/broker';
import { ACTIVITY_ATTEMPT_V1, ACTIVITY_REQUEST_V1, brokerNames } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { ActivityPipeline } from './pipeline';

/**
 * Consumes the activity queue into the pipeline: a message is acked once the flush that wrote
 * it succeeded, requeued when it failed, and dead-lettered at once when it breaks its contract.
 */
export function createActivityConsumer(broker: BrokerConnection, pipeline: ActivityPipeline, opts: { namespace: string; prefetch: number; logger: Logger }): QueueConsumer {
  return consumeDecoded(broker, {
    queue: brokerNames(opts.namespace).activityQueue,
    accepts: [ACTIVITY_REQUEST_V1, ACTIVITY_ATTEMPT_V1],
    prefetch: opts.prefetch,
    logger: opts.logger,
    handle: async (message) => {
      await pipeline.add(message); // rejects when its flush failed → requeued
      return 'ack';
    },
  });
}
