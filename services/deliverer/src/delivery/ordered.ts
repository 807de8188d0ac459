import { decodingHandler, QueueConsumer } from '@relay/broker';
import type { BrokerConnection } from '@relay/broker';
import { DELIVERY_V1, ORDERED_PARTITIONS, brokerNames } from '@relay/contracts';
import type { ActivityAttemptV1, DeliveryChannel, DeliveryMessageV1 } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { deliveryPosition } from '../retry/headers';
import { unsentAttempt } from './attempt-record';
import { handleDelivery } from './handle';
import type { DeliveryOutcome } from './handle';
import type { HeldKeys } from './held-keys';
import { KeyChains } from './key-chains';
import type { AttemptRecorder, DeliveryDeps, DeliveryRouter } from './ports';

export interface OrderedOptions {
  channel: DeliveryChannel;
  namespace: string;
  broker: BrokerConnection;
  logger: Logger;
  /** deliveries each ordered partition hands this deliverer at once (ORDERING_PREFETCH) */
  prefetch: number;
  /** how long this deliverer keeps an ordered delivery before it ends it (ORDERING_HOLD_MAX_MS) */
  holdMaxMs: number;
  held: HeldKeys;
  /** how often held keys are looked at for stuck ones */
  sweepMs: number;
  /** how often this deliverer looks whether it holds more than its share of partitions (ORDERING_BALANCE_MS; 0: never) */
  balanceMs: number;
  deps: DeliveryDeps;
  /** counts an attempt for the alert rules' failure rate (as the unordered path does) */
  counted(d: DeliveryMessageV1, outcome: DeliveryOutcome): void;
}

/**
 * A hand-over waits this long at most for the partition's attempts under way (an attempt ends by
 * DELIVERY_TIMEOUT_MS, its outcome's confirm by PUBLISH_CONFIRM_TIMEOUT_MS).
 */
const HANDOVER_WAIT_MS = 30_000;

/** One ordered partition as this deliverer holds it. */
interface Partition {
  consumer: QueueConsumer;
  /** attempts under way (handler calls), which a hand-over lets finish */
  attempting: number;
  /** being given to the next deliverer: nothing new starts */
  releasing: boolean;
  lastMessageAt: number;
  /** the waits in progress, ended at once by a hand-over or a stop */
  wakers: Set<() => void>;
}

/** How one ordered delivery's run ended: `left` — its channel was lost or stopped, the broker gives it again. */
type RunEnd = 'done' | 'left';

/** A wait the handler asked for instead of a publish: the next attempt, or the gate's hold. */
interface Asked {
  next: DeliveryMessageV1;
  until: number;
  reason: string;
}

/**
 * The ordered partitions of a channel (docs/ordering.md): one consumer per partition queue, each
 * on its own channel with a prefetch of its own; RabbitMQ's single active consumer makes one
 * deliverer at a time take a partition and hands it, with what that deliverer held unacked, in
 * order, to the next one when its channel closes. Within a partition a key's deliveries run one
 * after another (KeyChains); a delivery's retries and gate holds wait here, in memory, not in a
 * delay tier — a tier would send it back behind the key's later deliveries.
 */
export function createOrderedConsumers(opts: OrderedOptions) {
  const names = brokerNames(opts.namespace);
  const chains = new KeyChains();
  let stopping = false;

  const partitions: Partition[] = [];
  for (let k = 0; k < ORDERED_PARTITIONS; k++) {
    const queue = names.orderedQueue(opts.channel, k);
    const p: Partition = {
      consumer: null as unknown as QueueConsumer,
      attempting: 0,
      releasing: false,
      lastMessageAt: 0,
      wakers: new Set(),
    };
    p.consumer = new QueueConsumer(opts.broker, {
      queue,
      prefetch: opts.prefetch,
      logger: opts.logger,
      handler: decodingHandler({
        queue,
        accepts: [DELIVERY_V1],
        logger: opts.logger,
        handle: async (delivery, properties) => {
          p.lastMessageAt = Date.now();
          const generation = p.consumer.generation;
          const alive = () => !stopping && !p.releasing && p.consumer.generation === generation;
          const deadline = Date.now() + opts.holdMaxMs;
          const position = deliveryPosition(delivery.attempt, properties.headers);
          const chainKey = `${delivery.target_id}\n${delivery.order_key ?? ''}`;
          const end = await chains.after(chainKey, () =>
            deliverInOrder({ ...delivery, attempt: position.attempt }, position.scheduleBase, chainKey, p, {
              alive,
              deadline,
            }),
          );
          // what is left goes back with the channel, in order, never one by one
          return end === 'done' ? 'ack' : 'leave';
        },
      }),
    });
    partitions.push(p);
  }

  /** resolves true after `ms`, false at once when the deliverer stops or gives the partition away */
  const sleep = (p: Partition, ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (stopping || p.releasing) return resolve(false);
      const wake = () => {
        clearTimeout(timer);
        p.wakers.delete(wake);
        resolve(false);
      };
      const timer = setTimeout(
        () => {
          p.wakers.delete(wake);
          resolve(true);
        },
        Math.max(0, ms),
      );
      p.wakers.add(wake);
    });

  /**
   * One delivery until it is delivered or ended for good: the handler's retries and holds become
   * waits here (its router keeps them), each ending in another call of the handler; past the
   * bound (`deadline`) the delivery is dead-lettered as exhausted, so the key's next can go.
   */
  async function deliverInOrder(
    first: DeliveryMessageV1,
    scheduleBase: number,
    chainKey: string,
    p: Partition,
    run: { alive: () => boolean; deadline: number },
  ): Promise<RunEnd> {
    let d = first;
    /** its latest attempt as recorded, marked again if its key is found stuck while it waits */
    let recorded: ActivityAttemptV1 | null = null;
    const recorder: AttemptRecorder = {
      record: async (attempt) => {
        await opts.deps.recorder.record(opts.held.marked(chainKey, attempt));
        recorded = attempt;
      },
    };
    try {
      for (;;) {
        if (!run.alive()) return 'left';
        let asked: Asked | null = null;
        const router: DeliveryRouter = {
          retry: async (next, tierMs, _base, holdUntil) => {
            asked = {
              next,
              until: holdUntil ?? Date.now() + tierMs,
              reason: holdUntil === undefined ? 'retrying' : 'held',
            };
          },
          deadLetter: (delivery, why) => opts.deps.router.deadLetter(delivery, why),
        };
        let outcome: DeliveryOutcome;
        p.attempting += 1;
        try {
          outcome = await handleDelivery(
            d,
            { ...opts.deps, router, recorder },
            { scheduleBase, deadline: run.deadline },
          );
        } catch (err) {
          // its outcome could not be made durable (the broker): the attempt is made again, here, in its place
          opts.logger.warn('ordered delivery not settled; attempted again', {
            delivery_id: d.delivery_id,
            target_id: d.target_id,
            error: (err as Error).message,
          });
          if (!(await sleep(p, 1000))) return 'left';
          continue;
        } finally {
          p.attempting -= 1;
        }
        opts.counted(d, outcome);
        const wait = asked as Asked | null;
        if (wait === null) return 'done';
        const reason = outcome.state === 'held' ? outcome.reason : wait.reason;
        if (wait.until > run.deadline) {
          await endHeld(wait.next, reason, recorder);
          return 'done';
        }
        opts.held.waiting(chainKey, wait.next, { reason, untilMs: wait.until, recorded });
        if (!(await sleep(p, wait.until - Date.now()))) return 'left';
        d = wait.next;
      }
    } finally {
      opts.held.ended(chainKey);
    }
  }

  /**
   * A delivery the target gate holds past the bound (a paused target, an open breaker) ends like
   * one whose retries ran out: recorded as failed and dead-lettered (redrive sends it again).
   */
  async function endHeld(d: DeliveryMessageV1, reason: string, recorder: AttemptRecorder): Promise<void> {
    const error = `held (${reason}) past ORDERING_HOLD_MAX_MS (${opts.holdMaxMs} ms); the key's next event goes`;
    await recorder.record(unsentAttempt(d, { attempted_at: opts.deps.now().toISOString(), state: 'failed', error }));
    await opts.deps.router.deadLetter(d, { reason: 'exhausted', error, status: null, at: opts.deps.now() });
    opts.deps.meter.deadLettered(opts.deps.registry.get(d.target_kind)?.kind ?? 'unknown', 'exhausted');
  }

  /**
   * Gives partition k to the next deliverer in line: no new attempt starts there, the waits end,
   * the attempts under way finish (their outcome recorded and acknowledged), then the channel
   * closes — what it held returns to the queue in order — and this deliverer subscribes again at
   * the end of the line. A head that was waiting for a retry comes to the next deliverer at once,
   * as after a crash.
   */
  const release = async (k: number): Promise<void> => {
    const p = partitions[k]!;
    p.releasing = true;
    try {
      for (const wake of [...p.wakers]) wake();
      const until = Date.now() + HANDOVER_WAIT_MS;
      while (p.attempting > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      // the acks of what just finished go out before the channel closes
      await new Promise((resolve) => setImmediate(resolve));
      await p.consumer.resubscribe();
    } finally {
      p.releasing = false;
    }
    opts.logger.info('ordered partition given to the next deliverer', { channel: opts.channel, partition: k });
  };

  /**
   * Spreads the partitions over the deliverers, as the activity writers do theirs: single active
   * consumer gives a partition to the first deliverer that subscribed and never moves it while
   * that one lives. Every `balanceMs` a deliverer counts the channel's deliverers (the consumers
   * of the presence queue) and the partitions it received deliveries from since its last look;
   * holding more than its share (partitions / deliverers, rounded up), it gives one away.
   */
  const presence = new QueueConsumer(opts.broker, {
    queue: names.orderedDeliverersQueue(opts.channel),
    prefetch: 1,
    logger: opts.logger,
    handler: async () => 'ack',
  });
  let looking = false;
  const look = async (): Promise<void> => {
    const since = Date.now() - opts.balanceMs;
    const busy = partitions.flatMap((p, k) => (p.lastMessageAt >= since && !p.releasing ? [k] : []));
    if (busy.length <= 1) return;
    const ch = await opts.broker.openChannel();
    let deliverers: number;
    try {
      deliverers = (await ch.checkQueue(names.orderedDeliverersQueue(opts.channel))).consumerCount;
    } finally {
      await ch.close().catch(() => undefined);
    }
    const share = Math.ceil(ORDERED_PARTITIONS / Math.max(1, deliverers));
    if (busy.length > share) await release(busy[busy.length - 1]!);
  };

  let sweeping: NodeJS.Timeout | null = null;
  let balancing: NodeJS.Timeout | null = null;
  const consumers = [...partitions.map((p) => p.consumer), presence];
  return {
    keys: () => chains.keys,
    isConsuming: () => consumers.every((c) => c.isConsuming()),
    async start(): Promise<void> {
      opts.broker.setMaxListeners(Math.max(opts.broker.getMaxListeners(), consumers.length * 2 + 10));
      for (const c of consumers) await c.start();
      sweeping = setInterval(() => opts.held.sweep(), opts.sweepMs);
      sweeping.unref();
      if (opts.balanceMs > 0) {
        balancing = setInterval(() => {
          if (looking || stopping || !opts.broker.isUp()) return;
          looking = true;
          look()
            .catch((err: Error) =>
              opts.logger.warn('ordered partition balance failed; tried again next look', { error: err.message }),
            )
            .finally(() => (looking = false));
        }, opts.balanceMs);
        balancing.unref();
      }
    },
    async stop(graceMs: number): Promise<void> {
      stopping = true;
      if (sweeping) clearInterval(sweeping);
      if (balancing) clearInterval(balancing);
      // waits end now: what they held returns to the queue with the channel, in order
      for (const p of partitions) for (const wake of [...p.wakers]) wake();
      await Promise.all(consumers.map((c) => c.stop(graceMs)));
    },
  };
}
