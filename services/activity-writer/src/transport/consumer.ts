import { consumeDecoded } from '@relay/broker';
import type { ActivityPublisher, BrokerConnection, QueueConsumer } from '@relay/broker';
import { ACTIVITY_ATTEMPT_V1, ACTIVITY_BATCH_V1, ACTIVITY_PARTITIONS, ACTIVITY_REQUEST_V1, brokerNames } from '@relay/contracts';
import type { ActivityLogWriter } from '@relay/activity-log';
import type { Logger } from '@relay/logging';

export interface ActivityConsumers {
  start(): Promise<void>;
  stop(graceMs: number): Promise<void>;
  /** every partition queue and the queue of before partitions are subscribed */
  isConsuming(): boolean;
}

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
export function createActivityConsumers(broker: BrokerConnection, writer: ActivityLogWriter, forward: ActivityPublisher, opts: { namespace: string; prefetch: number; logger: Logger }): ActivityConsumers {
  const names = brokerNames(opts.namespace);
  // PREFETCH bounds what one writer holds unacked in all, whichever partitions it has
  const prefetch = Math.max(1, Math.ceil(opts.prefetch / ACTIVITY_PARTITIONS));
  const fresh = new Set<number>();
  const accepts = [ACTIVITY_REQUEST_V1, ACTIVITY_ATTEMPT_V1, ACTIVITY_BATCH_V1] as const;
  const partitions: QueueConsumer[] = names.activityPartitionQueues.map((queue, k) =>
    consumeDecoded(broker, {
      queue,
      // single records are what producers before batching sent; both stay readable
      accepts: [...accepts],
      prefetch,
      logger: opts.logger,
      handle: async (message) => {
        if (fresh.delete(k)) {
          opts.logger.info('activity partition taken', { partition: k });
          writer.resync();
        }
        // rejects when a flush failed → the whole message is requeued; rewriting its other records is idempotent
        await writer.write(message.type === ACTIVITY_BATCH_V1 ? message.records : [message]);
        return 'ack';
      },
    }),
  );
  const legacy = consumeDecoded(broker, {
    queue: names.activityQueue,
    accepts: [...accepts],
    prefetch,
    logger: opts.logger,
    handle: async (message) => {
      await Promise.all((message.type === ACTIVITY_BATCH_V1 ? message.records : [message]).map((r) => forward.publish(r)));
      return 'ack';
    },
  });
  const all = [...partitions, legacy];
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
    },
    async stop(graceMs) {
      await Promise.all(all.map((c) => c.stop(graceMs)));
    },
    isConsuming: () => all.every((c) => c.isConsuming()),
  };
}
