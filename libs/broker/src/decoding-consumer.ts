import type { ConsumeMessage } from 'amqplib';
import { ContractError, decodeMessage } from '@relay/contracts';
import type { MessageType } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { BrokerConnection } from './connection';
import { QueueConsumer } from './consumer';
import type { Disposition, MessageHandler } from './consumer';

/** The message a type list decodes to: `decodeMessage`'s own result type. */
type Decoded<T extends MessageType> = ReturnType<typeof decodeMessage<T>>;

/** Gets each message that met the contract, with the AMQP properties of the copy it came in. */
type DecodedHandler<T extends MessageType> = (
  message: Decoded<T>,
  properties: ConsumeMessage['properties'],
) => Promise<Disposition>;

interface DecodingOptions<T extends MessageType> {
  /** the queue, named in the log line */
  queue: string;
  /** the message types this queue carries; any other type breaks the contract */
  accepts: readonly T[];
  logger: Logger;
  handle: DecodedHandler<T>;
}

/**
 * Decodes each message against its contract before anything else sees it. A message that is not
 * JSON, has a type the queue does not carry or fails its schema can never succeed, so it is
 * dead-lettered at once with one log line — requeueing it would only spend the queue's delivery
 * limit. Any other failure is the handler's to throw (QueueConsumer requeues it).
 */
export function decodingHandler<T extends MessageType>(opts: DecodingOptions<T>): MessageHandler {
  return async (msg) => {
    let message: Decoded<T>;
    try {
      message = decodeMessage(msg.content, opts.accepts);
    } catch (err) {
      if (!(err instanceof ContractError)) throw err;
      opts.logger.error('invalid message dead-lettered', {
        queue: opts.queue,
        message_id: msg.properties.messageId,
        error: err.message,
      });
      return 'dead_letter';
    }
    return opts.handle(message, msg.properties);
  };
}

/** A QueueConsumer of `queue` whose handler only ever sees messages that met the contract. */
export function consumeDecoded<T extends MessageType>(
  connection: BrokerConnection,
  opts: DecodingOptions<T> & { prefetch: number },
): QueueConsumer {
  return new QueueConsumer(connection, {
    queue: opts.queue,
    prefetch: opts.prefetch,
    logger: opts.logger,
    handler: decodingHandler(opts),
  });
}
