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
 *
 * On a cluster (the connection fails over to other nodes), a publish whose connection went away
 * — before it was sent or while it waited for its confirm — is sent again on the next node's
 * connection if that is up within the same `confirmTimeoutMs`: one node's loss leaves the quorum
 * queues writable, so the sender need not see a 503 for it. The message may then be in the queue
 * twice (the first copy was written before the node died, unconfirmed), which delivery already
 * allows: at-least-once, the same delivery id (docs/delivery.md). With one node the publish
 * fails at once, as before: there is nowhere else to go.
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

  async publish(exchange: string, routingKey: string, content: Buffer, opts: PublishOptions): Promise<void> {
    const deadline = Date.now() + this.confirmTimeoutMs;
    for (;;) {
      try {
        await this.publishOnce(exchange, routingKey, content, opts, deadline);
        this.onSettled('confirmed');
        return;
      } catch (err) {
        const lost =
          err instanceof BrokerUnavailableError && (err.reason === 'not_connected' || err.reason === 'channel_closed');
        if (!lost || !this.connection.failsOver || !(await this.reconnected(deadline))) {
          this.onSettled((err as BrokerUnavailableError).reason);
          throw err;
        }
      }
    }
  }

  /** Resolves true once the connection is up again (another node), false at `deadline`. */
  private reconnected(deadline: number): Promise<boolean> {
    if (this.connection.isUp()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const onUp = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(
        () => {
          this.connection.off('up', onUp);
          resolve(false);
        },
        Math.max(0, deadline - Date.now()),
      );
      this.connection.once('up', onUp);
    });
  }

  private publishOnce(
    exchange: string,
    routingKey: string,
    content: Buffer,
    opts: PublishOptions,
    deadline: number,
  ): Promise<void> {
    const session = this.connection.current();
    if (!session) return Promise.reject(new BrokerUnavailableError('not_connected'));
    const ch = session.confirmChannel;
    this.watch(ch);
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => this.settle(opts.messageId, new BrokerUnavailableError('confirm_timeout')),
        Math.max(0, deadline - Date.now()),
      );
      this.pending.set(opts.messageId, { resolve, reject, timer, returned: false });
      try {
        ch.publish(
          exchange,
          routingKey,
          content,
          {
            persistent: true,
            mandatory: true,
            messageId: opts.messageId,
            type: opts.type,
            contentType: 'application/json',
            headers: opts.headers,
            timestamp: Math.floor(Date.now() / 1000),
          },
          (err: unknown) => {
            const entry = this.pending.get(opts.messageId);
            if (!entry) return;
            // amqplib calls back every unconfirmed publish with "channel closed" when the
            // channel goes away; only a basic.nack is the broker refusing the message
            if (err)
              this.settle(
                opts.messageId,
                new BrokerUnavailableError(isChannelClosed(err) ? 'channel_closed' : 'nacked'),
              );
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
    if (err) entry.reject(err);
    else entry.resolve();
  }

  private failAll(_session: BrokerSession): void {
    for (const id of [...this.pending.keys()]) this.settle(id, new BrokerUnavailableError('channel_closed'));
  }
}

/** amqplib's callback error for a publish whose channel closed before its confirm (lib/channel.js). */
function isChannelClosed(err: unknown): boolean {
  return err instanceof Error && err.message === 'channel closed';
}
