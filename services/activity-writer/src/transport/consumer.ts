import { batchSpanOptions, inSpan, SpanKind } from '@relay/telemetry';
import { QueueConsumer, consumeDecoded } from '@relay/broker';
import type { ActivityPublisher, BrokerConnection } from '@relay/broker';
import {
  ACTIVITY_ATTEMPT_V1,
  ACTIVITY_BATCH_V1,
  ACTIVITY_PARTITIONS,
  ACTIVITY_REQUEST_V1,
  brokerNames,
} from '@relay/contracts';
import type { ActivityLogWriter } from '@relay/activity-log';
import type { Logger } from '@relay/logging';

export interface ActivityConsumers {
  start(): Promise<void>;
  stop(graceMs: number): Promise<void>;
  /** every partition queue and the queue of before partitions are subscribed */
  isConsuming(): boolean;
}

/** A partition given away (with how long the settle before it took) or taken. */
export type Handover =
  { direction: 'given'; partition: number; settle_ms: number } | { direction: 'taken'; partition: number };

/**
 * Consumes the activity partitions into the log's writer: a message is acked once every record
 * it carried is durable, requeued when the write failed, and dead-lettered at once when it
 * breaks its contract. Every writer subscribes to every partition queue; each queue has a single
 * active consumer, so the broker gives a partition to one writer at a time and hands it to the
 * next subscribed writer when that one's channel closes (docs/architecture.md "Partitioned
 * writing"). The first message of a partition after a (re)subscription makes the writer resync:
 * another writer may have written that partition's accounts meanwhile. When the connection
 * drops, everything taken and unwritten is abandoned: it comes again, perhaps to another writer.
 *
 * The queue of before partitions is moved, not written: its records are published to their
 * partitions (confirmed) and then acked, so that no account is written by two writers at once.
 */
export function createActivityConsumers(
  broker: BrokerConnection,
  writer: ActivityLogWriter,
  forward: ActivityPublisher,
  opts: {
    namespace: string;
    prefetch: number;
    logger: Logger;
    balanceMs: number;
    now?: () => number;
    onHandover?: (h: Handover) => void;
  },
): ActivityConsumers {
  const names = brokerNames(opts.namespace);
  const now = opts.now ?? Date.now;
  // PREFETCH bounds what one writer holds unacked in all, whichever partitions it has
  const prefetch = Math.max(1, Math.ceil(opts.prefetch / ACTIVITY_PARTITIONS));
  const fresh = new Set<number>();
  /**
   * The broker sends a partition no more than `prefetch` unacked messages, and a message is acked
   * only once its index entries are written — which the log may hold for many seconds to gather
   * sparse pages (ACTIVITY_INDEX_WAIT_MS). Single-record messages would then fill the prefetch
   * long before the hold ends, and the partition would stall at `prefetch` messages per hold (a
   * 50,000-event chaos run fell behind by 11,000 messages so). So once a partition has this many
   * messages in hand, what the log holds of it is written at once (`settle`), while the rest of the
   * prefetch keeps the partition flowing.
   */
  const fullAt = Math.max(1, Math.floor((prefetch * 3) / 4));
  /**
   * per partition: when its last message came, whether it is being given away, its messages in
   * hand (taken, not yet acked or requeued) and whether a settle for a full prefetch is under way
   */
  const state = names.activityPartitionQueues.map(() => ({
    lastMessageAt: 0,
    releasing: false,
    waiting: [] as (() => void)[],
    inHand: 0,
    settling: false,
  }));
  const accepts = [ACTIVITY_REQUEST_V1, ACTIVITY_ATTEMPT_V1, ACTIVITY_BATCH_V1] as const;
  const partitions: QueueConsumer[] = names.activityPartitionQueues.map((queue, k) =>
    consumeDecoded(broker, {
      queue,
      // single records are what producers before batching sent; both stay readable
      accepts: [...accepts],
      prefetch,
      logger: opts.logger,
      handle: async (message, properties) => {
        const p = state[k]!;
        if (p.releasing) {
          // being given away: not written here; it returns to the queue with the channel
          await new Promise<void>((resolve) => p.waiting.push(resolve));
          return 'requeue';
        }
        p.lastMessageAt = now();
        if (fresh.delete(k)) {
          opts.logger.info('activity partition taken', { partition: k });
          opts.onHandover?.({ direction: 'taken', partition: k });
          writer.resync(k);
        }
        // rejects when a flush failed → the whole message is requeued; rewriting its other records is idempotent
        // a span of the first record's trace, linked to the others' (tracing on only)
        const written = inSpan(
          'activity write',
          () => writer.write(message.type === ACTIVITY_BATCH_V1 ? message.records : [message]),
          { kind: SpanKind.CONSUMER, ...batchSpanOptions(properties.headers) },
        );
        p.inHand += 1;
        // after write() took the message, so the settle writes it too
        if (p.inHand >= fullAt && !p.settling) void settleFull(k);
        try {
          await written;
        } finally {
          p.inHand -= 1;
        }
        return 'ack';
      },
    }),
  );
  /**
   * Writes what the log holds of a partition whose prefetch is three-quarters in hand, again while
   * messages that came during the last settle keep it so (each settle acks every message it found).
   */
  async function settleFull(k: number): Promise<void> {
    const p = state[k]!;
    p.settling = true;
    try {
      while (p.inHand >= fullAt && !p.releasing) {
        await writer.settle(k);
        // the handlers of the messages it acked count themselves out first
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch {
      // a failed write rejected the messages' own promises: they are requeued and come again
    } finally {
      p.settling = false;
    }
  }
  const legacy = consumeDecoded(broker, {
    queue: names.activityQueue,
    accepts: [...accepts],
    prefetch,
    logger: opts.logger,
    handle: async (message) => {
      await Promise.all(
        (message.type === ACTIVITY_BATCH_V1 ? message.records : [message]).map((r) => forward.publish(r)),
      );
      return 'ack';
    },
  });
  // present while this writer runs: the writers are this queue's consumers (no message comes)
  const presence = new QueueConsumer(broker, {
    queue: names.activityWritersQueue,
    prefetch: 1,
    logger: opts.logger,
    handler: async () => 'ack',
  });
  const all = [...partitions, legacy, presence];

  /**
   * Gives partition k to the next writer in line: stops writing its messages, writes everything
   * taken of k so far, its held rows and index pages too (so nothing of k is written here after
   * another writer has it; the other partitions' held rows and pages stay held), then closes the
   * channel (what waits returns to the queue) and subscribes again at the end of the line.
   */
  const release = async (k: number): Promise<void> => {
    const p = state[k]!;
    p.releasing = true;
    let settleMs = 0;
    try {
      const started = performance.now();
      await writer.settle(k);
      settleMs = Math.round(performance.now() - started);
      // the acks of what settle wrote go out before the channel closes
      await new Promise((resolve) => setImmediate(resolve));
      fresh.add(k);
      await partitions[k]!.resubscribe();
    } finally {
      p.releasing = false;
      p.waiting.splice(0).forEach((resolve) => resolve());
    }
    opts.logger.info('activity partition given to the next writer', { partition: k, settle_ms: settleMs });
    opts.onHandover?.({ direction: 'given', partition: k, settle_ms: settleMs });
  };

  /**
   * Spreads the partitions over the writers: RabbitMQ gives a partition to the first writer that
   * subscribed and never moves it while that writer lives, so the first writer of a deployment
   * would keep all eight. Every `balanceMs` a writer counts the writers (the consumers of
   * `<ns>.activity.writers`, which every writer consumes: a partition queue counts only its active
   * consumer) and the partitions it received messages from since the last look; holding more than its share (partitions / writers, rounded up), it gives
   * one away. An idle partition costs nothing wherever it is; a busy one moves within a look or two.
   */
  let balancing: NodeJS.Timeout | null = null;
  let looking = false;
  const look = async (): Promise<void> => {
    const since = now() - opts.balanceMs;
    const busy = state.flatMap((p, k) => (p.lastMessageAt >= since && !p.releasing ? [k] : []));
    if (busy.length <= 1) return;
    const ch = await broker.openChannel();
    let writers: number;
    try {
      writers = (await ch.checkQueue(names.activityWritersQueue)).consumerCount;
    } finally {
      await ch.close().catch(() => undefined);
    }
    const share = Math.ceil(ACTIVITY_PARTITIONS / Math.max(1, writers));
    if (busy.length > share) await release(busy[busy.length - 1]!);
  };
  // each consumer follows the connection's up and down events: one listener each, beside the writer's own
  broker.setMaxListeners(Math.max(broker.getMaxListeners(), all.length + 10));
  const markFresh = () => partitions.forEach((_, k) => fresh.add(k));
  return {
    async start() {
      markFresh();
      broker.on('down', () => {
        markFresh();
        writer.abandon(new Error('broker connection lost; the activity messages taken come again'));
      });
      for (const c of all) await c.start();
      if (opts.balanceMs > 0) {
        balancing = setInterval(() => {
          if (looking || !broker.isUp()) return;
          looking = true;
          look()
            .catch((err: Error) =>
              opts.logger.warn('activity partition balance failed; tried again next look', { error: err.message }),
            )
            .finally(() => (looking = false));
        }, opts.balanceMs);
        balancing.unref();
      }
    },
    async stop(graceMs) {
      if (balancing) clearInterval(balancing);
      await Promise.all(all.map((c) => c.stop(graceMs)));
    },
    isConsuming: () => all.every((c) => c.isConsuming()),
  };
}
