import { ConfirmPublisher, QueueConsumer } from '@relay/broker';
import type { BrokerConnection } from '@relay/broker';
import type { Disposition } from '@relay/broker';
import { ContractError, DELIVERY_V1, brokerNames, decodeMessage } from '@relay/contracts';
import type { DeliveryChannel } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { Store } from '@relay/store';
import type { SendOutcome, OutboundRequest } from '../kind';
import type { TargetRegistry } from '../registry';
import { createAttemptRecorder, createTargetLookup } from './adapters';
import { handleDelivery } from './handle';

export interface DelivererOptions {
  channel: DeliveryChannel;
  namespace: string;
  broker: BrokerConnection;
  store: Store;
  registry: TargetRegistry;
  send(req: OutboundRequest): Promise<SendOutcome>;
  logger: Logger;
  prefetch: number;
  targetCacheTtlMs: number;
  confirmTimeoutMs: number;
}

/**
 * A deliverer is one consumer of its channel's queue: scale it by running more instances.
 * Messages that break the contract are dead-lettered at once (retrying cannot fix them);
 * handler failures requeue (the queue's delivery limit bounds that); everything else is
 * acked only after the attempt's outcome was confirmed by the broker.
 */
export function createDeliverer(opts: DelivererOptions): QueueConsumer {
  const recorder = createAttemptRecorder(new ConfirmPublisher(opts.broker, opts.confirmTimeoutMs), opts.namespace);
  const targets = createTargetLookup(opts.store, opts.targetCacheTtlMs);
  const deps = { targets, registry: opts.registry, send: opts.send, recorder, logger: opts.logger, now: () => new Date() };
  return new QueueConsumer(opts.broker, {
    queue: brokerNames(opts.namespace).deliveryQueue(opts.channel),
    prefetch: opts.prefetch,
    logger: opts.logger,
    handler: async (msg): Promise<Disposition> => {
      let delivery;
      try {
        delivery = decodeMessage(msg.content, [DELIVERY_V1]);
      } catch (err) {
        if (err instanceof ContractError) {
          opts.logger.error('invalid delivery message dead-lettered', { error: err.message, message_id: msg.properties.messageId });
          return 'dead_letter';
        }
        throw err;
      }
      await handleDelivery(delivery, deps);
      return 'ack';
    },
  });
}
