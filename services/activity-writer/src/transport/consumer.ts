import { consumeDecoded } from '@relay/broker';
import type { BrokerConnection, QueueConsumer } from '@relay/broker';
import { ACTIVITY_ATTEMPT_V1, ACTIVITY_BATCH_V1, ACTIVITY_REQUEST_V1, brokerNames } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { ActivityLogWriter } from '@relay/activity-log';

/**
 * Consumes the activity queue into the log's writer: a message is acked once the flush that wrote
 * it succeeded, requeued when it failed, and dead-lettered at once when it breaks its contract.
 */
export function createActivityConsumer(broker: BrokerConnection, writer: ActivityLogWriter, opts: { namespace: string; prefetch: number; logger: Logger }): QueueConsumer {
  return consumeDecoded(broker, {
    queue: brokerNames(opts.namespace).activityQueue,
    // single records are what producers before batching sent; both stay readable
    accepts: [ACTIVITY_REQUEST_V1, ACTIVITY_ATTEMPT_V1, ACTIVITY_BATCH_V1],
    prefetch: opts.prefetch,
    logger: opts.logger,
    handle: async (message) => {
      // rejects when a flush failed → the whole message is requeued; rewriting its other records is idempotent
      await writer.write(message.type === ACTIVITY_BATCH_V1 ? message.records : [message]);
      return 'ack';
    },
  });
}
