import type { Channel, ConsumeMessage } from 'amqplib';
import type { Logger } from '@relay/logging';
import type { BrokerConnection } from './connection';

/**
 * What the one place that decides does with a message once it has been handled. `leave`: nothing
 * now — it returns to the queue when the channel closes, with every other message the channel
 * holds, in their order (an ordered partition's messages must not be requeued one by one).
 */
export type Disposition = 'ack' | 'dead_letter' | 'requeue' | 'leave';

export type MessageHandler = (msg: ConsumeMessage) => Promise<Disposition>;

interface ConsumerOptions {
  queue: string;
  prefetch: number;
  handler: MessageHandler;
  logger: Logger;
}

/**
 * Consumes one queue with manual acks and a bounded prefetch, and follows the connection:
 * after a reconnect it opens a new channel and consumes again. Unacked messages of a lost
 * channel return to the queue (redelivered=true), so a message is only ever acked on the
 * channel it arrived on. `stop()` cancels consumption and waits for handlers in flight.
 */
export class QueueConsumer {
  private channel: Channel | null = null;
  private consumerTag: string | null = null;
  private stopping = false;
  private readonly inFlight = new Set<Promise<void>>();
  private subscriptions = 0;

  constructor(
    private readonly connection: BrokerConnection,
    private readonly opts: ConsumerOptions,
  ) {}

  get busy(): number {
    return this.inFlight.size;
  }

  isConsuming(): boolean {
    return this.channel !== null && this.consumerTag !== null;
  }

  /**
   * Counts the channels this consumer has subscribed on: a handler that read it when its message
   * came can tell, while it still works, that its channel was lost (its message will come again)
   * or stopped.
   */
  get generation(): number {
    return this.channel === null || this.stopping ? -1 : this.subscriptions;
  }

  async start(): Promise<void> {
    this.connection.on('up', () => {
      this.subscribe().catch((err: Error) =>
        this.opts.logger.error('consume failed', { queue: this.opts.queue, error: err.message }),
      );
    });
    this.connection.on('down', () => {
      this.channel = null;
      this.consumerTag = null;
    });
    if (this.connection.isUp()) await this.subscribe();
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    const ch = this.channel;
    if (ch && this.consumerTag) await ch.cancel(this.consumerTag).catch(() => undefined);
    const drained = Promise.all([...this.inFlight]);
    await Promise.race([drained, new Promise((r) => setTimeout(r, graceMs).unref())]);
    if (ch) await ch.close().catch(() => undefined);
    this.channel = null;
  }

  /**
   * Gives the queue up and takes it again on a new channel: the messages this consumer holds
   * unacknowledged return to the queue (handlers still running settle nothing), and on a queue
   * with a single active consumer the next consumer in line becomes active while this one joins
   * the end of the line.
   */
  async resubscribe(): Promise<void> {
    const ch = this.channel;
    this.channel = null;
    this.consumerTag = null;
    if (ch) await ch.close().catch(() => undefined);
    await this.subscribe();
  }

  private async subscribe(): Promise<void> {
    if (this.stopping) return;
    const ch = await this.connection.openChannel();
    ch.on('error', (err: Error) =>
      this.opts.logger.warn('consumer channel error', { queue: this.opts.queue, error: err.message }),
    );
    ch.on('close', () => {
      if (this.channel === ch) {
        this.channel = null;
        this.consumerTag = null;
      }
    });
    await ch.prefetch(this.opts.prefetch);
    this.channel = ch;
    this.subscriptions += 1;
    const { consumerTag } = await ch.consume(this.opts.queue, (msg) => {
      if (!msg) return; // consumer cancelled by the broker (queue deleted); reconnect re-subscribes
      const work = this.handle(ch, msg);
      this.inFlight.add(work);
      void work.finally(() => this.inFlight.delete(work));
    });
    this.consumerTag = consumerTag;
  }

  private async handle(ch: Channel, msg: ConsumeMessage): Promise<void> {
    let disposition: Disposition;
    try {
      disposition = await this.opts.handler(msg);
    } catch (err) {
      // A handler that throws hit something unexpected (a bug, or an outage it could not
      // classify): requeue so the message is not lost; the queue's delivery limit stops loops.
      this.opts.logger.error('message handler failed', { queue: this.opts.queue, error: (err as Error).message });
      disposition = 'requeue';
    }
    if (this.channel !== ch) return; // channel lost: the broker redelivers it
    try {
      if (disposition === 'ack') ch.ack(msg);
      else if (disposition !== 'leave') ch.nack(msg, false, disposition === 'requeue');
    } catch (err) {
      this.opts.logger.warn('ack failed; message will be redelivered', {
        queue: this.opts.queue,
        error: (err as Error).message,
      });
    }
  }
}
