import { decodingHandler, QueueConsumer } from '@relay/broker';
import type { BrokerConnection } from '@relay/broker';
import { ACTIVITY_ATTEMPT_V1, DELIVERY_V1, ORDERED_PARTITIONS, brokerNames } from '@relay/contracts';
import type { DeliveryChannel, DeliveryMessageV1 } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { deliveryPosition } from '../retry/headers';
import { handleDelivery } from './handle';
import type { DeliveryOutcome } from './handle';
import type { HeldKeys } from './held-keys';
import { KeyChains } from './key-chains';
import type { DeliveryDeps, DeliveryRouter } from './ports';

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
  deps: DeliveryDeps;
  /** counts an attempt for the alert rules' failure rate (as the unordered path does) */
  counted(d: DeliveryMessageV1, outcome: DeliveryOutcome): void;
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
  const wakers = new Set<() => void>();
  /** resolves true after `ms`, false at once when the deliverer stops */
  const sleep = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (stopping) return resolve(false);
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve(false);
      };
      const timer = setTimeout(
        () => {
          wakers.delete(wake);
          resolve(true);
        },
        Math.max(0, ms),
      );
      wakers.add(wake);
    });

  const consumers: QueueConsumer[] = [];
  for (let k = 0; k < ORDERED_PARTITIONS; k++) {
    const queue = names.orderedQueue(opts.channel, k);
    const consumer: QueueConsumer = new QueueConsumer(opts.broker, {
      queue,
      prefetch: opts.prefetch,
      logger: opts.logger,
      handler: decodingHandler({
        queue,
        accepts: [DELIVERY_V1],
        logger: opts.logger,
        handle: async (delivery, properties) => {
          const generation = consumer.generation;
          const alive = () => !stopping && consumer.generation === generation;
          const deadline = Date.now() + opts.holdMaxMs;
          const position = deliveryPosition(delivery.attempt, properties.headers);
          const chainKey = `${delivery.target_id}\n${delivery.order_key ?? ''}`;
          const end = await chains.after(chainKey, () =>
            deliverInOrder({ ...delivery, attempt: position.attempt }, position.scheduleBase, chainKey, {
              alive,
              deadline,
            }),
          );
          // what is left goes back with the channel, in order, never one by one
          return end === 'done' ? 'ack' : 'leave';
        },
      }),
    });
    consumers.push(consumer);
  }

  /**
   * One delivery until it is delivered or ended for good: the handler's retries and holds become
   * waits here (its router keeps them), each ending in another call of the handler; past the
   * bound (`deadline`) the delivery is dead-lettered as exhausted, so the key's next can go.
   */
  async function deliverInOrder(
    first: DeliveryMessageV1,
    scheduleBase: number,
    chainKey: string,
    run: { alive: () => boolean; deadline: number },
  ): Promise<RunEnd> {
    let d = first;
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
        try {
          outcome = await handleDelivery(d, { ...opts.deps, router }, { scheduleBase, deadline: run.deadline });
        } catch (err) {
          // its outcome could not be made durable (the broker): the attempt is made again, here, in its place
          opts.logger.warn('ordered delivery not settled; attempted again', {
            delivery_id: d.delivery_id,
            target_id: d.target_id,
            error: (err as Error).message,
          });
          if (!(await sleep(1000))) return 'left';
          continue;
        }
        opts.counted(d, outcome);
        const wait = asked as Asked | null;
        if (wait === null) return 'done';
        const reason = outcome.state === 'held' ? outcome.reason : wait.reason;
        if (wait.until > run.deadline) {
          await endHeld(wait.next, reason);
          return 'done';
        }
        opts.held.waiting(chainKey, wait.next, wait.next.attempt, reason);
        if (!(await sleep(wait.until - Date.now()))) return 'left';
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
  async function endHeld(d: DeliveryMessageV1, reason: string): Promise<void> {
    const error = `held (${reason}) past ORDERING_HOLD_MAX_MS (${opts.holdMaxMs} ms); the key's next event goes`;
    const { event_id, delivery_id, account_id, endpoint_id, target_id, target_kind, attempt } = d;
    await opts.deps.recorder.record({
      ...{ event_id, delivery_id, account_id, endpoint_id, target_id, target_kind, attempt },
      type: ACTIVITY_ATTEMPT_V1,
      attempted_at: opts.deps.now().toISOString(),
      state: 'failed',
      status_code: null,
      duration_ms: 0,
      error,
      next_attempt_at: null,
    });
    await opts.deps.router.deadLetter(d, { reason: 'exhausted', error, status: null, at: opts.deps.now() });
    opts.deps.meter.deadLettered(opts.deps.registry.get(d.target_kind)?.kind ?? 'unknown', 'exhausted');
  }

  let sweeping: NodeJS.Timeout | null = null;
  return {
    keys: () => chains.keys,
    isConsuming: () => consumers.every((c) => c.isConsuming()),
    async start(): Promise<void> {
      opts.broker.setMaxListeners(Math.max(opts.broker.getMaxListeners(), consumers.length * 2 + 10));
      for (const c of consumers) await c.start();
      sweeping = setInterval(() => opts.held.sweep(), opts.sweepMs);
      sweeping.unref();
    },
    async stop(graceMs: number): Promise<void> {
      stopping = true;
      if (sweeping) clearInterval(sweeping);
      // waits end now: what they held returns to the queue with the channel, in order
      for (const wake of [...wakers]) wake();
      await Promise.all(consumers.map((c) => c.stop(graceMs)));
    },
  };
}
