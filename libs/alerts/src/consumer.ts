import { consumeDecoded } from '@relay/broker';
import type { BrokerConnection, QueueConsumer } from '@relay/broker';
import { ACCOUNT_EVENT_V1, brokerNames } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { AlertEvaluator } from './evaluator';

/**
 * Consumes `<ns>.account-events`: each event is matched against its account's rules and acked
 * once the alerts it caused were queued (a failure requeues it; the episode key makes the
 * repeat send nothing twice). Several instances share the queue: RabbitMQ gives each event to one.
 */
export function consumeAccountEvents(
  broker: BrokerConnection,
  namespace: string,
  evaluator: AlertEvaluator,
  logger: Logger,
  prefetch = 10,
): QueueConsumer {
  return consumeDecoded(broker, {
    queue: brokerNames(namespace).accountEventQueue,
    accepts: [ACCOUNT_EVENT_V1],
    prefetch,
    logger,
    handle: async (event) => {
      await evaluator.handle(event);
      return 'ack';
    },
  });
}
