import { QueueConsumer } from '@relay/broker';
import type { BrokerConnection, Disposition } from '@relay/broker';
import { ACTIVITY_ATTEMPT_V1, ACTIVITY_REQUEST_V1, ContractError, brokerNames, decodeMessage } from '@relay/contracts';
import type { ActivityMessage } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { ActivityPipeline } from './pipeline';

/**
 * Consumes the activity queue into the pipeline: a message is acked once the flush that wrote
 * it succeeded, requeued when it failed, and dead-lettered at once when it breaks its contract.
 */
export function createActivityConsumer(broker: BrokerConnection, pipeline: ActivityPipeline, opts: { namespace: string; prefetch: number; logger: Logger }): QueueConsumer {
  return new QueueConsumer(broker, {
    queue: brokerNames(opts.namespace).activityQueue,
    prefetch: opts.prefetch,
    logger: opts.logger,
    handler: async (msg): Promise<Disposition> => {
      let message: ActivityMessage;
      try {
        message = decodeMessage(msg.content, [ACTIVITY_REQUEST_V1, ACTIVITY_ATTEMPT_V1]);
      } catch (err) {
        if (err instanceof ContractError) {
          opts.logger.error('invalid activity message dead-lettered', { error: err.message });
          return 'dead_letter';
        }
        throw err;
      }
      await pipeline.add(message); // rejects when its flush failed → requeued
      return 'ack';
    },
  });
}
