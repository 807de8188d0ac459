import { randomUUID } from 'node:crypto';
import {
  ACTIVITY_BATCH_V1,
  ACTIVITY_PARTITIONS,
  activityPartitionOf,
  brokerNames,
  checkActivityRecord,
  encodeActivityBatch,
  MAX_ACTIVITY_BATCH,
} from '@relay/contracts';
import type { ActivityMessage } from '@relay/contracts';
import { batchTraceHeaders, currentTraceparent } from '@relay/telemetry';
import { PublishBatcher } from './batcher';
import type { ConfirmPublisher } from './publisher';

export interface ActivityPublisher {
  /** Settles when the batch carrying `record` is confirmed (or failed). A record that breaks its contract fails alone, at once. */
  publish(record: ActivityMessage): Promise<void>;
  /** records not yet confirmed */
  readonly pending: number;
  /** publishes what is gathered now (shutdown) */
  flush(): void;
}

/**
 * How long a record waits for others. Callers do not wait on it for their answer to a sender
 * (the gateway answers before its row is confirmed; a deliverer acks after), so a few
 * milliseconds buy batches of tens of records under load for no latency anyone sees.
 */
export const ACTIVITY_LINGER_MS = 5;

/** A partition counts as active for a spread linger while it started a batch this recently. */
export const ACTIVE_PARTITION_MS = 1000;

interface ActivityBatchOptions {
  /** a message carries at most this many records (a batch this full goes at once) */
  maxItems: number;
  /** how long a partition's first record waits for others */
  lingerMs: number;
  /**
   * The linger grows with the spread: `lingerMs` × the partitions that started a batch in the
   * last `ACTIVE_PARTITION_MS` (so at most `lingerMs` × 8). Records of one account wait
   * `lingerMs`, as before; records spread over the 8 partitions wait 8 times longer, so each
   * partition's message carries as many records as one account's did and the messages per second
   * stay about 1000 / `lingerMs` whatever the spread. For the gateway, whose answer does not
   * wait for the confirm, the crash window is the longest linger; for a deliverer, which acks
   * after the confirm, it is that much longer on a prefetch slot.
   */
  spreadLinger?: boolean;
}

/**
 * Activity records to the activity exchange, many to a message (`relay.activity.batch.v1`), with
 * confirms. A message carries the records of one partition (@relay/contracts
 * activityPartitionOf: by account), so one writer writes every record of a request.
 */
export function createActivityPublisher(
  publisher: Pick<ConfirmPublisher, 'publish'>,
  namespace: string,
  opts: ActivityBatchOptions = { maxItems: MAX_ACTIVITY_BATCH, lingerMs: ACTIVITY_LINGER_MS },
): ActivityPublisher {
  const names = brokerNames(namespace);
  /** when each partition last started a batch (spread linger only): 8 numbers */
  const startedAt = new Array<number>(ACTIVITY_PARTITIONS).fill(-Infinity);
  const lingerOf = (k: number): number | (() => number) =>
    !opts.spreadLinger
      ? opts.lingerMs
      : () => {
          const now = Date.now();
          startedAt[k] = now;
          let active = 0;
          for (const t of startedAt) if (now - t < ACTIVE_PARTITION_MS) active += 1;
          return opts.lingerMs * active;
        };
  const batchers = Array.from(
    { length: ACTIVITY_PARTITIONS },
    (_, k) =>
      new PublishBatcher<ActivityMessage>(
        (records) =>
          publisher.publish(
            names.activityExchange,
            names.activityPartitionRoutingKey(k),
            encodeActivityBatch(records),
            {
              messageId: `activity.${randomUUID()}`,
              type: ACTIVITY_BATCH_V1,
              // the records' traces, so the writer's span joins them (nothing when tracing is off)
              headers: batchTraceHeaders(records.map((r) => traceOf.get(r))),
            },
          ),
        { maxItems: opts.maxItems, lingerMs: lingerOf(k) },
      ),
  );
  /** each record's trace while it waits for its batch (tracing on only; gone with the record) */
  const traceOf = new WeakMap<ActivityMessage, string>();
  return {
    publish(record) {
      try {
        checkActivityRecord(record);
      } catch (err) {
        return Promise.reject(err);
      }
      const traceparent = currentTraceparent();
      if (traceparent) traceOf.set(record, traceparent);
      return batchers[activityPartitionOf(record.account_id)]!.add(record);
    },
    get pending() {
      return batchers.reduce((n, b) => n + b.pending, 0);
    },
    flush: () => batchers.forEach((b) => b.flush()),
  };
}
