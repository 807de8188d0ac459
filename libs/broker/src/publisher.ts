import type { ConfirmChannel, Message } from 'amqplib';
import type { BrokerConnection, BrokerSession } from './connection';
import { BrokerUnavailableError } from './errors';

export interface PublishOptions {
  messageId: string;
  /** AMQP `type` property; the versioned message type */
  type: string;
  /** extra AMQP headers */
  headers?: Record<string, unknown>;
}

interface Pending {
  resolve: () => void;
  reject: (err: BrokerUnavailableError) => void;
  timer: NodeJS.Timeout;
  returned: boolean;
}

/** How one publish ended: confirmed, or why the broker did not take it (BrokerUnavailableError reasons). */
export type PublishResult = 'confirmed' | BrokerUnavailableError['reason'];

/**
 * Publishes persistent, mandatory messages on the connection's confirm channel and resolves
 * each publish from its own confirm callback — a stream of per-message confirms rather than
 * `waitForConfirms()`, so concurrent requests never wait on each other's messages.
 *
 * A publish resolves only on `basic.ack` for a routed message; nack, `basic.return`
 * (unroutable), a closed channel or no confirm within `confirmTimeoutMs` all reject with
 * BrokerUnavailableError.
 */
export class ConfirmPublisher {
  private readonly pending = new Map<string, Pending>();
  private readonly watched = new WeakSet<ConfirmChannel>();

  constructor(
    private readonly connection: BrokerConnection,
    private readonly confirmTimeoutMs: number,
    /** told how every publish ended, once (metrics: confirms and failures by reason) */
    private readonly onSettled: (result: PublishResult) => void = () => undefined,
  ) {
    connection.on('down', (s: BrokerSession) => this.failAll(s));
  }

  get inFlight(): number {
    return this.pending.size;
  }

  publish(exchange: string, routingKey: string, content: Buffer, opts: PublishOptions): Promise<void> {
    const session = this.connection.current();
    if (!session) {
      this.onSettled('not_connected');
      return Promise.reject(new BrokerUnavailableError('not_connected'));
    }
    const ch = session.confirmChannel;
    this.watch(ch);
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => this.settle(opts.messageId, new BrokerUnavailableError('confirm_timeout')), this.confirmTimeoutMs);
      this.pending.set(opts.messageId, { resolve, reject, timer, returned: false });
      try {
        ch.publish(
          exchange,
          routingKey,
          content,
          { persistent: true, mandatory: true, messageId: opts.messageId, type: opts.type, contentType: 'application/json', headers: opts.headers, timestamp: Math.floor(Date.now() / 1000) },
          (err: unknown) => {
            const entry = this.pending.get(opts.messageId);
            if (!entry) return;
            if (err) this.settle(opts.messageId, new BrokerUnavailableError('nacked'));
            else if (entry.returned) this.settle(opts.messageId, new BrokerUnavailableError('unroutable'));
            else this.settle(opts.messageId, null);
          },
        );
      } catch {
        // amqplib throws synchronously when the channel is already closed
        this.settle(opts.messageId, new BrokerUnavailableError('channel_closed'));
      }
    });
  }

  private watch(ch: ConfirmChannel): void {
    if (this.watched.has(ch)) return;
    this.watched.add(ch);
    // basic.return arrives before the basic.ack of the same message
    ch.on('return', (msg: Message) => {
      const id = msg.properties.messageId as string | undefined;
      const entry = id ? this.pending.get(id) : undefined;
      if (entry) entry.returned = true;
    });
  }

  private settle(messageId: string, err: BrokerUnavailableError | null): void {
    const entry = this.pending.get(messageId);
    if (!entry) return;
    this.pending.delete(messageId);
    clearTimeout(entry.timer);
    this.onSettled(err ? err.reason : 'confirmed');
    if (err) entry.reject(err);
    else entry.resolve();
  }

  private failAll(_session: BrokerSession): void {
    for (const id of [...this.pending.keys()]) this.settle(id, new BrokerUnavailableError('channel_closed'));
  }
}
