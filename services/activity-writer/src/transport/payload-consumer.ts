import { consumeDecoded } from '@relay/broker';
import type { BrokerConnection, QueueConsumer } from '@relay/broker';
import { PAYLOAD_BATCH_V1, brokerNames } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { ActivityLogWriter } from '@relay/activity-log';

/**
 * Consumes accepted events' payloads into the log's writer, which writes them to the payload partition of their rows' hour
 * with its next flush. Its own queue and a small prefetch: a payload message is up to about
 * 1 MiB (@relay/broker createPayloadPublisher), so `prefetch` bounds what the writer holds in bytes.
 */
export function createPayloadConsumer(
  broker: BrokerConnection,
  writer: ActivityLogWriter,
  opts: { namespace: string; prefetch: number; logger: Logger },
): QueueConsumer {
  return consumeDecoded(broker, {
    queue: brokerNames(opts.namespace).payloadQueue,
    accepts: [PAYLOAD_BATCH_V1],
    prefetch: opts.prefetch,
    logger: opts.logger,
    handle: async (message) => {
      await writer.writePayloads(message.payloads);
      return 'ack';
    },
  });
}
