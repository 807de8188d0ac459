import { randomUUID } from 'node:crypto';
import type { Channel, ConfirmChannel, ConsumeMessage, GetMessage, Message } from 'amqplib';
import {
  brokerNames,
  CLI_ANSWER_V1,
  CLI_FORWARD_V1,
  cliBacklogQueue,
  cliSessionsExchange,
  decodeMessage,
  DELIVERY_V1,
  encodeMessage,
} from '@relay/contracts';
import type { CliAnswerV1, CliForwardV1, CliLocalOutcome, DeliveryChannel, DeliveryMessageV1 } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { BrokerConnection } from './connection';

/*
 * The broker route between the outputs deliverer and the `relay listen` sessions (docs/cli.md
 * "How a delivery reaches its session"). A request and its answer, with the original delivery
 * held unacked by the deliverer the whole time: whatever is lost on this route — a session that
 * ends, a management API instance that dies, a forward that waits too long — ends as no answer,
 * which the deliverer retries on the target's schedule. Nothing here is durable on purpose but
 * the backlog: a target's deliveries kept while no session listens.
 */

/** The bounds of every CLI session target's backlog (the CLI kind's caps) and where an expired entry goes. */
export interface CliBacklogBounds {
  maxDeliveries: number;
  maxAgeMs: number;
  /** the queue is deleted this long after its last use (no consumer, no get, no declare) */
  expiresMs: number;
  /** the delivery channel whose work queue takes an entry back when it expires */
  channel: DeliveryChannel;
  /**
   * entries a drain holds at once to put back in acceptance order those the deliverer's
   * concurrent attempts appended a few places out of it (and the bytes they may take)
   */
  drainWindow: number;
  drainWindowBytes: number;
}

/** Acceptance order: the gateway's clock, then the event id for events of one millisecond. */
function acceptedBefore(a: DeliveryMessageV1, b: DeliveryMessageV1): boolean {
  return a.received_at < b.received_at || (a.received_at === b.received_at && a.event_id < b.event_id);
}

/**
 * The backlog queue's arguments, declared identically by the deliverer that appends and the
 * session that drains (a different declaration is refused by the broker). A durable classic
 * queue: `x-max-length` with `reject-publish` refuses the newest past the bound (the deliverer
 * then retries it on the schedule; what is kept stays in order); a queue-level `x-message-ttl`,
 * the same for every entry, so they expire head first and none waits behind another; an expired
 * entry is dead-lettered to its channel's work queue, where the deliverer finds it older than the
 * backlog keeps anything and retries it on the schedule; `x-expires` drops a queue nobody used
 * for longer than an entry lives.
 */
function backlogArguments(namespace: string, b: CliBacklogBounds): Record<string, unknown> {
  return {
    'x-max-length': b.maxDeliveries,
    'x-overflow': 'reject-publish',
    'x-message-ttl': b.maxAgeMs,
    'x-expires': b.expiresMs,
    'x-dead-letter-exchange': brokerNames(namespace).deliveriesExchange,
    'x-dead-letter-routing-key': b.channel,
  };
}

async function assertBacklog(ch: Channel, namespace: string, targetId: string, b: CliBacklogBounds) {
  return ch.assertQueue(cliBacklogQueue(namespace, targetId), {
    durable: true,
    arguments: backlogArguments(namespace, b),
  });
}

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
    private readonly backlog: CliBacklogBounds,
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

  /**
   * Appends a delivery to its target's backlog, persistent and confirmed. Appends go one after
   * another on one channel, so the backlog holds them in the order the attempts found no
   * session. The queue is declared on every append: a declaration is what keeps `x-expires` from
   * deleting a backlog that is still being filled (a publish does not).
   */
  keep(d: DeliveryMessageV1): Promise<boolean> {
    const sent = this.keeping.then(async () => {
      const ch = await this.keepChannel();
      const { queue } = await assertBacklog(ch, this.namespace, d.target_id, this.backlog);
      const confirmed = new Promise<void>((resolve, reject) =>
        ch.sendToQueue(
          queue,
          encodeMessage(d),
          { persistent: true, messageId: `${d.delivery_id}.${d.attempt}`, type: d.type },
          (err: unknown) => (err ? reject(new Error('the broker refused it (the backlog is full)')) : resolve()),
        ),
      );
      return { confirmed };
    });
    // the next append waits for this one's publish, not for its confirm
    this.keeping = sent.catch(() => undefined);
    return sent
      .then((s) => s.confirmed)
      .then(
        () => true,
        (err: Error) => {
          this.logger.warn('CLI backlog did not take the delivery; it is retried on the schedule', {
            target_id: d.target_id,
            delivery_id: d.delivery_id,
            error: err.message,
          });
          return false;
        },
      );
  }

  private keeping: Promise<unknown> = Promise.resolve();
  private keeper: ConfirmChannel | null = null;

  /** the channel appends go on; a new one after the broker closed it (a refused declaration does) */
  private async keepChannel(): Promise<ConfirmChannel> {
    if (this.keeper) return this.keeper;
    const session = this.connection.current();
    if (!session) throw new Error('the broker is not connected');
    const ch = await session.connection.createConfirmChannel();
    ch.on('error', (err: Error) => this.logger.warn('CLI backlog channel error', { error: err.message }));
    ch.on('close', () => {
      if (this.keeper === ch) this.keeper = null;
    });
    this.keeper = ch;
    return ch;
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

/**
 * What the session does with one delivery taken from its target's backlog: forward it to the
 * CLI and record the outcome, retrying while the session lives. `recorded`: it is finished with
 * (delivered, or failed for good) and leaves the backlog once its row is durable — the next one
 * is forwarded meanwhile; `stop`: the session ended, and it stays at the head of the backlog for
 * the next session.
 */
export type CliBacklogHandler = (delivery: DeliveryMessageV1) => Promise<{ recorded: Promise<void> } | 'stop'>;

interface CliSessionQueueOptions {
  namespace: string;
  targetId: string;
  /** forwards the session holds unanswered at once: the queue's prefetch */
  inFlight: number;
  /** forwards waiting beyond that (the oldest is dropped past it: its deliverer times out and retries) */
  maxWaiting: number;
  backlog: CliBacklogBounds;
  logger: Logger;
  onForward: CliForwardHandler;
  onKept: CliBacklogHandler;
  /** the broker channel went away: the session cannot be served any more */
  onLost(): void;
}

export interface CliSessionQueue {
  /** deliveries in the target's backlog when the session opened */
  readonly backlogCount: number;
  /**
   * Drains the backlog in order, one delivery at a time, then binds the session's live queue
   * and consumes the backlog for what is appended after (a forward that found no session just
   * before the bind). Until the live queue is bound
   * a forward finds no session and is appended to the backlog, behind the ones being drained:
   * that is what keeps acceptance order across the drain. Resolves once the live queue is bound
   * (never rejects: a failure of the channel ends the session through `onLost`).
   */
  start(): Promise<void>;
  /** answers every forward still held as gone, then deletes the queue */
  close(reason: string): Promise<void>;
}

/**
 * The management API's side of one session: an exclusive, auto-deleted queue of its own bound
 * to `<ns>.cli` with the target's id, consumed with a prefetch of the session's in-flight limit,
 * after the target's backlog is drained. Each forward is answered once — the CLI's outcome or
 * `gone` — to its deliverer's reply queue, then acked.
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
  const backlog = await assertBacklog(ch, opts.namespace, opts.targetId, opts.backlog);

  /**
   * Takes entries off the head into a window (unacked, so a session that ends leaves them where
   * they were) and hands on the earliest accepted of the window, one at a time: the backlog
   * holds entries in the order attempts found no session, which concurrent attempts may have
   * swapped by a few places; the window puts them back in acceptance order.
   */
  const window: Array<{ msg: GetMessage; d: DeliveryMessageV1 }> = [];
  let windowBytes = 0;
  const fill = async (): Promise<void> => {
    while (window.length < opts.backlog.drainWindow && windowBytes < opts.backlog.drainWindowBytes) {
      const msg = await ch.get(backlog.queue, { noAck: false });
      if (msg === false) return;
      try {
        window.push({ msg, d: decodeMessage(msg.content, [DELIVERY_V1]) });
        windowBytes += msg.content.length;
      } catch {
        opts.logger.warn('CLI backlog entry not understood; dropped', { target_id: opts.targetId });
        ch.ack(msg);
      }
    }
  };
  const drain = async (): Promise<boolean> => {
    for (;;) {
      if (closing) return false;
      await fill();
      if (window.length === 0) return true;
      let first = 0;
      for (let i = 1; i < window.length; i++) if (acceptedBefore(window[i]!.d, window[first]!.d)) first = i;
      const [{ msg, d }] = window.splice(first, 1) as [{ msg: GetMessage; d: DeliveryMessageV1 }];
      windowBytes -= msg.content.length;
      const handled = await opts.onKept(d);
      if (handled === 'stop') {
        // back where they were, in the order they were taken, for the next session
        if (!closing) for (const held of [{ msg }, ...window]) ch.nack(held.msg, false, true);
        window.length = 0;
        return false;
      }
      // acked once its row is durable; the rows of a window's worth may be under way at once
      const acked = handled.recorded.then(() => ch.ack(msg));
      recording.add(acked);
      acked.then(
        () => recording.delete(acked),
        (err: Error) => failed(err),
      );
      if (recording.size >= opts.backlog.drainWindow) await Promise.race(recording);
    }
  };
  const lateEntry = async (msg: ConsumeMessage): Promise<void> => {
    let d: DeliveryMessageV1;
    try {
      d = decodeMessage(msg.content, [DELIVERY_V1]);
    } catch {
      opts.logger.warn('CLI backlog entry not understood; dropped', { target_id: opts.targetId });
      return ch.ack(msg);
    }
    const handled = closing ? 'stop' : await opts.onKept(d);
    if (handled === 'stop') return closing ? undefined : ch.nack(msg, false, true);
    await handled.recorded;
    ch.ack(msg);
  };
  const recording = new Set<Promise<void>>();
  const failed = (err: Error): void => {
    if (closing) return;
    opts.logger.warn('CLI session queue failed', { target_id: opts.targetId, error: err.message });
    opts.onLost();
  };

  const live = async (): Promise<void> => {
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
  };

  return {
    backlogCount: backlog.messageCount,
    async start() {
      try {
        if (!(await drain())) return;
        await live();
        // a forward that came back unroutable just before the bind is appended a moment later:
        // the backlog stays consumed for the session's life, one entry at a time
        let late = Promise.resolve();
        await ch.consume(backlog.queue, (msg) => {
          if (msg) late = late.then(() => lateEntry(msg)).catch(failed);
        });
      } catch (err) {
        failed(err as Error);
      }
    },
    async close(reason) {
      if (closing) return;
      closing = true;
      for (const answer of [...held.values()]) answer({ gone: reason });
      await ch.close().catch(() => undefined);
    },
  };
}

/**
 * Deletes a CLI session target's backlog, with what it holds: the target is gone, so nothing
 * could drain it (its deliveries' rows stay as recorded). A backlog nobody deletes — the broker
 * was down when its target was — is dropped by its `x-expires` after its entries expired.
 */
export async function deleteCliBacklog(
  connection: BrokerConnection,
  namespace: string,
  targetId: string,
): Promise<void> {
  const ch = await connection.openChannel();
  ch.on('error', () => undefined);
  try {
    await ch.deleteQueue(cliBacklogQueue(namespace, targetId));
  } finally {
    await ch.close().catch(() => undefined);
  }
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
