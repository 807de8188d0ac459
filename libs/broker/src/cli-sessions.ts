import { randomUUID } from 'node:crypto';
import type { Channel, ConfirmChannel, ConsumeMessage, Message } from 'amqplib';
import { CLI_ANSWER_V1, CLI_FORWARD_V1, cliSessionsExchange } from '@relay/contracts';
import type { CliAnswerV1, CliForwardV1, CliLocalOutcome } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { BrokerConnection } from './connection';

/*
 * The broker route between the outputs deliverer and the `relay listen` sessions (docs/cli.md
 * "How a delivery reaches its session"). A request and its answer, with the original delivery
 * held unacked by the deliverer the whole time: whatever is lost on this route — a session that
 * ends, a management API instance that dies, a forward that waits too long — ends as no answer,
 * which the deliverer retries on the target's schedule. Nothing here is durable on purpose.
 */

/** Why no local answer came back (the CLI kind's CliNoAnswer). */
type CliNoAnswer = 'no_session' | 'timeout' | 'broker_unavailable' | 'session_gone';

interface Pending {
  resolve(got: CliLocalOutcome | CliNoAnswer): void;
  timer: NodeJS.Timeout;
  returned: boolean;
}

/**
 * The deliverer's side: publishes each forward on `<ns>.cli` with the target id as routing key
 * (mandatory: no session bound comes back at once as `no_session`), with a per-message TTL equal
 * to the wait, and takes the first answer from its own exclusive reply queue.
 */
export class CliForwarder {
  private channel: ConfirmChannel | null = null;
  private replyQueue = '';
  private readonly pending = new Map<string, Pending>();
  private opening: Promise<void> | null = null;

  constructor(
    private readonly connection: BrokerConnection,
    private readonly namespace: string,
    private readonly logger: Logger,
  ) {
    connection.on('up', () => void this.open());
    connection.on('down', () => this.lost());
  }

  /** Opens the channel and reply queue now if the broker is up (later on every reconnect). */
  async start(): Promise<void> {
    if (this.connection.isUp()) await this.open();
  }

  get inFlight(): number {
    return this.pending.size;
  }

  async forward(forward: CliForwardV1, timeoutMs: number): Promise<CliLocalOutcome | CliNoAnswer> {
    if (!this.channel) await this.open();
    const ch = this.channel;
    if (!ch) return 'broker_unavailable';
    const id = randomUUID();
    return new Promise((resolve) => {
      const settle = (got: CliLocalOutcome | CliNoAnswer): void => {
        const entry = this.pending.get(id);
        if (!entry) return;
        this.pending.delete(id);
        clearTimeout(entry.timer);
        resolve(got);
      };
      this.pending.set(id, { resolve: settle, timer: setTimeout(() => settle('timeout'), timeoutMs), returned: false });
      try {
        ch.publish(
          cliSessionsExchange(this.namespace),
          forward.target_id,
          Buffer.from(JSON.stringify(forward)),
          {
            mandatory: true,
            persistent: false,
            messageId: id,
            correlationId: id,
            replyTo: this.replyQueue,
            expiration: String(timeoutMs),
            type: CLI_FORWARD_V1,
            contentType: 'application/json',
          },
          (err: unknown) => {
            const entry = this.pending.get(id);
            if (!entry) return;
            if (err) settle('broker_unavailable');
            // basic.return comes before the confirm of the same message
            else if (entry.returned) settle('no_session');
          },
        );
      } catch {
        settle('broker_unavailable');
      }
    });
  }

  private open(): Promise<void> {
    if (this.channel) return Promise.resolve();
    if (!this.opening) {
      this.opening = this.openOnce()
        .catch((err: Error) => void this.logger.warn('CLI forward channel not opened', { error: err.message }))
        .finally(() => {
          this.opening = null;
        });
    }
    return this.opening;
  }

  private async openOnce(): Promise<void> {
    const session = this.connection.current();
    if (!session) return;
    const ch = await session.connection.createConfirmChannel();
    ch.on('error', (err: Error) => this.logger.warn('CLI forward channel error', { error: err.message }));
    ch.on('close', () => {
      if (this.channel !== ch) return;
      this.lost();
    });
    ch.on('return', (msg: Message) => {
      const entry = this.pending.get(String(msg.properties.correlationId));
      if (entry) entry.returned = true;
    });
    await ch.assertExchange(cliSessionsExchange(this.namespace), 'direct', { durable: true });
    const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
    await ch.consume(queue, (msg) => msg && this.answered(msg), { noAck: true });
    this.replyQueue = queue;
    this.channel = ch;
  }

  private answered(msg: ConsumeMessage): void {
    const entry = this.pending.get(String(msg.properties.correlationId));
    if (!entry) return; // answered already (another session was first) or given up on
    const answer = decodeAnswer(msg.content);
    if (!answer) return void this.logger.warn('CLI session answer not understood; waiting for another');
    entry.resolve('gone' in answer.outcome ? 'session_gone' : answer.outcome);
  }

  private lost(): void {
    this.channel = null;
    for (const entry of [...this.pending.values()]) entry.resolve('broker_unavailable');
  }
}

function decodeAnswer(content: Buffer): CliAnswerV1 | null {
  try {
    const parsed = JSON.parse(content.toString('utf8')) as CliAnswerV1;
    return parsed?.type === CLI_ANSWER_V1 && typeof parsed.outcome === 'object' && parsed.outcome !== null
      ? parsed
      : null;
  } catch {
    return null;
  }
}

/** What the management API does with each forward its session receives: send it to the CLI, answer once. */
export type CliForwardHandler = (
  forward: CliForwardV1,
  answer: (outcome: CliLocalOutcome | { gone: string }) => void,
) => void;

interface CliSessionQueueOptions {
  namespace: string;
  targetId: string;
  /** forwards the session holds unanswered at once: the queue's prefetch */
  inFlight: number;
  /** forwards waiting beyond that (the oldest is dropped past it: its deliverer times out and retries) */
  maxWaiting: number;
  logger: Logger;
  onForward: CliForwardHandler;
  /** the broker channel went away: the session cannot be served any more */
  onLost(): void;
}

export interface CliSessionQueue {
  /** answers every forward still held as gone, then deletes the queue */
  close(reason: string): Promise<void>;
}

/**
 * The management API's side of one session: an exclusive, auto-deleted queue of its own bound
 * to `<ns>.cli` with the target's id, consumed with a prefetch of the session's in-flight limit.
 * Each forward is answered once — the CLI's outcome or `gone` — to its deliverer's reply queue,
 * then acked.
 */
export async function openCliSessionQueue(
  connection: BrokerConnection,
  opts: CliSessionQueueOptions,
): Promise<CliSessionQueue> {
  const ch: Channel = await connection.openChannel();
  const held = new Map<ConsumeMessage, (outcome: CliLocalOutcome | { gone: string }) => void>();
  let closing = false;
  ch.on('error', (err: Error) =>
    opts.logger.warn('CLI session channel error', { target_id: opts.targetId, error: err.message }),
  );
  ch.on('close', () => {
    held.clear();
    if (!closing) opts.onLost();
  });
  await ch.prefetch(opts.inFlight);
  await ch.assertExchange(cliSessionsExchange(opts.namespace), 'direct', { durable: true });
  const { queue } = await ch.assertQueue('', {
    exclusive: true,
    autoDelete: true,
    durable: false,
    arguments: { 'x-max-length': opts.maxWaiting },
  });
  await ch.bindQueue(queue, cliSessionsExchange(opts.namespace), opts.targetId);
  await ch.consume(queue, (msg) => {
    if (!msg) return;
    const forward = decodeForward(msg.content);
    const { replyTo, correlationId } = msg.properties as { replyTo?: string; correlationId?: string };
    if (!forward || !replyTo || !correlationId) {
      opts.logger.warn('CLI forward not understood; dropped', { target_id: opts.targetId });
      return void ch.ack(msg);
    }
    const answer = (outcome: CliLocalOutcome | { gone: string }): void => {
      if (!held.delete(msg)) return; // answered already, or the channel is gone
      const body: CliAnswerV1 = { type: CLI_ANSWER_V1, outcome };
      try {
        ch.sendToQueue(replyTo, Buffer.from(JSON.stringify(body)), {
          correlationId,
          type: CLI_ANSWER_V1,
          contentType: 'application/json',
          persistent: false,
        });
        ch.ack(msg);
      } catch (err) {
        opts.logger.warn('CLI answer not sent; the deliverer retries', {
          target_id: opts.targetId,
          error: (err as Error).message,
        });
      }
    };
    held.set(msg, answer);
    opts.onForward(forward, answer);
  });
  return {
    async close(reason) {
      if (closing) return;
      closing = true;
      for (const answer of [...held.values()]) answer({ gone: reason });
      await ch.close().catch(() => undefined);
    },
  };
}

function decodeForward(content: Buffer): CliForwardV1 | null {
  try {
    const parsed = JSON.parse(content.toString('utf8')) as CliForwardV1;
    return parsed?.type === CLI_FORWARD_V1 &&
      typeof parsed.delivery_id === 'string' &&
      typeof parsed.headers === 'object' &&
      typeof parsed.body_base64 === 'string'
      ? parsed
      : null;
  } catch {
    return null;
  }
}
