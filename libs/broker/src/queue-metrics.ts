import type { Channel } from 'amqplib';
import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { brokerNames, ORDERED_CHANNELS, ORDERED_PARTITIONS } from '@relay/contracts';
import type { DeliveryChannel } from '@relay/contracts';
import type { BrokerConnection } from './connection';

interface QueueStat {
  queue: string;
  /** ready messages (a quorum queue's declare-ok count leaves out those delivered and unacked) */
  messages: number;
  consumers: number;
}

interface QueueStatsOptions {
  broker: BrokerConnection;
  /** the queues to read: a fixed list, so the series count is fixed too */
  queues: readonly string[];
  /** how long one reading is served before the broker is asked again */
  cacheMs: number;
  /** a reading gives up after this long (queues not read by then are left out); default 2000 */
  readTimeoutMs?: number;
  now?: () => number;
}

/** Default QueueStatsOptions.cacheMs: below a usual 15 s scrape interval, far above a scrape storm's spacing. */
export const QUEUE_STATS_CACHE_MS = 5000;

/**
 * Reads queue depth and consumer count from the broker (a passive declare, `checkQueue`, per
 * queue) on a channel of its own: a missing queue makes the broker close the channel it was
 * asked on, which must never be the publishers' confirm channel or a consumer's. A reading is
 * cached for `cacheMs` and concurrent scrapes share one read, so whatever the scrape rate the
 * broker sees at most one round of `queues.length` round trips per `cacheMs`. A broker that
 * stops answering (black-holed, not yet noticed by the heartbeat) costs a scrape at most
 * `readTimeoutMs`, well inside Prometheus' default 10 s scrape timeout.
 */
export class QueueStatsReader {
  private channel: Channel | null = null;
  private cached: { at: number; stats: QueueStat[] } | null = null;
  private reading: Promise<QueueStat[]> | null = null;
  private readonly now: () => number;

  constructor(private readonly opts: QueueStatsOptions) {
    this.now = opts.now ?? Date.now;
  }

  read(): Promise<QueueStat[]> {
    if (this.cached && this.now() - this.cached.at < this.opts.cacheMs) return Promise.resolve(this.cached.stats);
    this.reading ??= this.readAll().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async readAll(): Promise<QueueStat[]> {
    const stats: QueueStat[] = [];
    // broker down: report nothing rather than the last reading, which would look current
    if (!this.opts.broker.isUp()) return stats;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.opts.readTimeoutMs ?? 2000);
    });
    const reading = { abandoned: false };
    const done = await Promise.race([this.readInto(stats, reading).then(() => 'done' as const), timedOut]);
    clearTimeout(timer);
    let result = stats;
    if (done === 'timeout') {
      // its pending replies may never come: this reading stops, the next starts on a fresh channel
      reading.abandoned = true;
      result = [...stats];
      const stuck = this.channel;
      this.channel = null;
      stuck?.close().catch(() => undefined);
    }
    // a partial reading is cached too, so a stalled broker is asked once per cacheMs, not per scrape
    this.cached = { at: this.now(), stats: result };
    return result;
  }

  private async readInto(stats: QueueStat[], reading: { abandoned: boolean }): Promise<void> {
    for (const queue of this.opts.queues) {
      if (reading.abandoned) return;
      try {
        const ch = await this.openChannel();
        const ok = await ch.checkQueue(queue);
        if (reading.abandoned) return;
        stats.push({ queue, messages: ok.messageCount, consumers: ok.consumerCount });
      } catch {
        // not declared (yet), or the connection went: that queue is left out of this reading
      }
    }
  }

  private async openChannel(): Promise<Channel> {
    if (this.channel) return this.channel;
    const ch = await this.opts.broker.openChannel();
    // a 404 on checkQueue closes the channel with an error; handled, it cannot crash the process
    ch.on('error', () => undefined);
    ch.on('close', () => {
      if (this.channel === ch) this.channel = null;
    });
    this.channel = ch;
    return ch;
  }
}

/**
 * `relay_queue_messages{queue}` and `relay_queue_consumers{queue}`, read when scraped. The
 * `queue` label is a queue name from brokerNames: a fixed, small set per service.
 */
export function registerQueueMetrics(registry: Registry, reader: QueueStatsReader): void {
  // each gauge reads on its own: prom-client collects metrics concurrently, and both share one reading
  const gauge = (name: string, help: string, pick: (s: QueueStat) => number): Gauge<'queue'> =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'],
      registers: [registry],
      async collect() {
        const stats = await reader.read();
        this.reset();
        for (const s of stats) this.set({ queue: s.queue }, pick(s));
      },
    });
  gauge(
    'relay_queue_messages',
    'messages ready in the queue (not counting those delivered and not yet acknowledged), as the broker reports them',
    (s) => s.messages,
  );
  gauge('relay_queue_consumers', 'consumers attached to the queue, as the broker reports them', (s) => s.consumers);
}

/** A delivery channel's queues: the work queue, its dead-letter queue and one per retry tier. */
export function deliveryQueuesOf(namespace: string, channel: DeliveryChannel, tiersMs: readonly number[]): string[] {
  const n = brokerNames(namespace);
  // an ordering channel's partitions (docs/ordering.md) are work queues too
  const ordered = ORDERED_CHANNELS.includes(channel)
    ? Array.from({ length: ORDERED_PARTITIONS }, (_, k) => n.orderedQueue(channel, k))
    : [];
  return [
    n.deliveryQueue(channel),
    ...ordered,
    ...tiersMs.map((ms) => n.retryQueue(channel, ms)),
    n.deadDeliveryQueue(channel),
  ];
}

/** The activity queues: the partitions, the queue of before partitions, the dead letters, the payloads. */
export function activityQueuesOf(namespace: string): string[] {
  const n = brokerNames(namespace);
  return [n.activityQueue, ...n.activityPartitionQueues, n.deadActivityQueue, n.payloadQueue];
}
