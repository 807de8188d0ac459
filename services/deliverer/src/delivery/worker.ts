import { CounterBuffer, targetSubject } from '@relay/alerts';
import { contextFrom, inSpan, SpanKind } from '@relay/telemetry';
import { ConfirmPublisher, consumeDecoded, publishAccountEvent } from '@relay/broker';
import { createCacheMetrics } from '@relay/cache';
import type { ChangeConnections } from '@relay/cache';
import type { BrokerConnection } from '@relay/broker';
import { DELIVERY_V1, ORDERED_CHANNELS, brokerNames } from '@relay/contracts';
import type { DeliveryChannel } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import type { Registry } from 'prom-client';
import type { Store, TargetRecord } from '@relay/store';
import type { HttpRequest, SendOutcome, TargetRegistry } from '@relay/targets';
import type { RetryPolicy } from '../retry/decide';
import { deliveryPosition } from '../retry/headers';
import { createAttemptRecorder, createDeliveryRouter, createTargetHealth } from './adapters';
import { BreakerRedis, createBreakerStateWriter, RedisTargetGate } from '@relay/target-gate';
import { handleDelivery } from './handle';
import { countGateCalls, createDeliveryMetrics, registerBreakerStateGauge } from './metrics';
import { TargetCache } from './target-cache';
import { HeldKeys, redisHeldKeyStore } from './held-keys';
import { createOrderedConsumers } from './ordered';
import type { DeliveryOutcome } from './handle';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { createDeliveryTransformer } from '@relay/transform';

export interface DelivererOptions {
  channel: DeliveryChannel;
  namespace: string;
  broker: BrokerConnection;
  store: Store;
  registry: TargetRegistry;
  send(req: HttpRequest): Promise<SendOutcome>;
  logger: Logger;
  prefetch: number;
  /** targets kept in memory, until an announcement says they changed (TARGET_CACHE_MAX) */
  targetCacheMax: number;
  /** the change announcements the target cache follows (connectChangeFeed), and its revalidation pacing */
  changes: ChangeConnections;
  revalidation: { batchSize: number; pauseMs: number };
  confirmTimeoutMs: number;
  retry: RetryPolicy;
  flagAfterPermanentFailures: number;
  /** where the attempt, retry and dead-letter metrics are registered (the service's /metrics) */
  metrics: Registry;
  /** the target gate's lease and batching (defaults: DEFAULT_LEASE_MS, DEFAULT_FLUSH_MS, DEFAULT_QUIET_FLUSH_MS) */
  gate?: { leaseMs?: number; flushMs?: number; quietFlushMs?: number };
  /** ordered deliveries (docs/ordering.md): each partition's prefetch, the hold bound, when a key is stuck, how often partitions are shared out */
  ordering: { prefetch: number; holdMaxMs: number; stuckAfterMs: number; balanceMs: number };
}

/** What main.ts runs: the channel's work queue and, on a channel that orders, its ordered partitions. */
export interface Deliverer {
  start(): Promise<void>;
  stop(graceMs: number): Promise<void>;
  isConsuming(): boolean;
}

/**
 * An in-flight lease outlives the longest attempt (DELIVERY_TIMEOUT_MS, 10 s by default; an SMTP
 * session up to 30 s) with room to spare: a deliverer SIGKILLed mid-attempt holds its slot this long.
 */
const DEFAULT_LEASE_MS = 60_000;
/** outcomes are reported to the breaker (and leases given back) in batches this often */
const DEFAULT_FLUSH_MS = 100;
/** a closed breaker's successes alone: a tenth of the default window's bucket (60 s / 6) */
const DEFAULT_QUIET_FLUSH_MS = 1000;

/**
 * A deliverer is one consumer of its channel's queue: scale it by running more instances
 * (no state is shared between them except the broker and the store). Messages that break the
 * contract are dead-lettered at once (retrying cannot fix them); handler failures requeue
 * (the queue's delivery limit bounds that); everything else is acked only after the attempt's
 * outcome, and its retry or dead letter, were confirmed by the broker.
 */
export function createDeliverer(opts: DelivererOptions): Deliverer {
  const publisher = new ConfirmPublisher(opts.broker, opts.confirmTimeoutMs);
  const targets = new TargetCache({
    store: opts.store,
    maxEntries: opts.targetCacheMax,
    metrics: createCacheMetrics(opts.metrics),
    logger: opts.logger,
  });
  targets.follow(opts.changes.feed, opts.revalidation);
  // each target's attempts per minute, for the alert rules' failure rate (docs/alerts.md "Counters"):
  // counted in memory, written to Redis every few seconds, never a round trip per delivery
  const attemptCounts = new CounterBuffer({
    redis: opts.changes.commands,
    namespace: opts.namespace,
    onError: (err) => opts.logger.warn('alert counters not written', { error: err.message }),
  });
  // the account's events (alert rules, docs/alerts.md): told once, by the instance that made the change
  const tellAccount = (
    kind: 'target_flagged' | 'breaker_opened' | 'breaker_closed',
    target: TargetRecord,
    detail: Record<string, string>,
  ): Promise<void> =>
    publishAccountEvent(publisher, opts.namespace, {
      kind,
      account_id: target.account_id,
      endpoint_id: target.endpoint_id,
      target_id: target.id,
      at: new Date().toISOString(),
      detail: { ...detail, target_kind: target.kind },
    }).catch((err: Error) => {
      opts.logger.warn('account event not published', { kind, target_id: target.id, error: err.message });
    });
  const tellFlagged = (target: TargetRecord, reason: string): Promise<void> =>
    tellAccount('target_flagged', target, { reason });
  const meter = createDeliveryMetrics(
    opts.metrics,
    opts.registry.kinds().filter((k) => opts.registry.get(k)?.channel === opts.channel),
  );
  registerBreakerStateGauge(opts.metrics, () => targets.held());
  const health = createTargetHealth(opts.store, targets, opts.changes.publisher, tellFlagged);
  const writer = createBreakerStateWriter(
    opts.store,
    (change) => opts.changes.publisher.announce(change),
    (id) => targets.forget(id),
  );
  const gate = new RedisTargetGate({
    breaker: countGateCalls(opts.metrics, new BreakerRedis(opts.changes.commands, opts.namespace)),
    logger: opts.logger,
    leaseMs: opts.gate?.leaseMs ?? DEFAULT_LEASE_MS,
    flushMs: opts.gate?.flushMs ?? DEFAULT_FLUSH_MS,
    quietFlushMs: opts.gate?.quietFlushMs ?? DEFAULT_QUIET_FLUSH_MS,
    sync: {
      async changed(target, view, won) {
        await writer.write(target, view);
        if (!won) return;
        // the Lua transition picked this one caller: metrics, the log and the account's event once
        meter.breakerTransition(view.state);
        opts.logger.warn('target breaker changed', {
          target_id: target.id,
          endpoint_id: target.endpoint_id,
          account_id: target.account_id,
          state: view.state,
          reason: view.reason,
        });
        if (view.state === 'open') await tellAccount('breaker_opened', target, { reason: view.reason });
        else if (view.state === 'closed') await tellAccount('breaker_closed', target, { reason: view.reason });
      },
      async flag(target, view) {
        const open = Math.round((Date.now() - view.since) / 1000);
        if (!(await health.flag(target.id, `breaker open for ${open} s: ${view.reason}`.slice(0, 200)))) return;
        meter.targetFlagged(opts.registry.get(target.kind)?.kind ?? 'unknown', 'breaker');
        opts.logger.warn('target flagged', {
          target_id: target.id,
          endpoint_id: target.endpoint_id,
          account_id: target.account_id,
          target_kind: target.kind,
          reason: 'breaker open too long',
        });
      },
    },
  });
  const deps = {
    targets,
    gate,
    registry: opts.registry,
    transform: createDeliveryTransformer({ store: opts.store, feed: opts.changes.feed }),
    send: opts.send,
    recorder: createAttemptRecorder(publisher, opts.namespace),
    router: createDeliveryRouter(publisher, opts.namespace, opts.channel),
    health,
    meter,
    policy: { ...opts.retry, flagAfterPermanentFailures: opts.flagAfterPermanentFailures },
    logger: opts.logger,
    now: () => new Date(),
    random: Math.random,
  };
  // a delivery the gate held was not attempted: it counts for neither side of the failure rate
  const counted = (delivery: DeliveryMessageV1, decision: DeliveryOutcome): void => {
    if (decision.state !== 'held')
      attemptCounts.add(
        targetSubject(delivery.target_id),
        decision.state === 'delivered' || decision.state === 'dropped' ? 'ok' : 'fail',
      );
  };
  const work = consumeDecoded(opts.broker, {
    queue: brokerNames(opts.namespace).deliveryQueue(opts.channel),
    accepts: [DELIVERY_V1],
    prefetch: opts.prefetch,
    logger: opts.logger,
    handle: async (delivery, properties) => {
      const position = deliveryPosition(delivery.attempt, properties.headers);
      // a span of the event's trace (the gateway's traceparent in the headers) when tracing is on
      const decision = await inSpan(
        'delivery attempt',
        () => handleDelivery({ ...delivery, attempt: position.attempt }, deps, position),
        {
          kind: SpanKind.CONSUMER,
          parent: contextFrom(properties.headers),
          attributes: {
            'relay.channel': opts.channel,
            'relay.attempt': position.attempt,
            'relay.target_id': delivery.target_id,
          },
        },
      );
      counted(delivery, decision);
      return 'ack';
    },
  });
  if (!ORDERED_CHANNELS.includes(opts.channel)) return work;
  const held = new HeldKeys({
    // an entry outlives its head by a minute at most, whoever held it
    store: redisHeldKeyStore(opts.changes.commands, opts.namespace, opts.ordering.holdMaxMs + 60_000),
    stuckAfterMs: opts.ordering.stuckAfterMs,
    logger: opts.logger,
    registry: opts.metrics,
    // the stuck head's row says so (docs/ordering.md "Held keys")
    record: (attempt) => deps.recorder.record(attempt),
    onStuck: (d, entry, heldMs) =>
      publishAccountEvent(publisher, opts.namespace, {
        kind: 'ordering_key_stuck',
        account_id: d.account_id,
        endpoint_id: d.endpoint_id,
        target_id: d.target_id,
        at: new Date().toISOString(),
        detail: {
          key: entry.key,
          event_id: entry.event_id,
          reason: entry.reason,
          held_s: Math.round(heldMs / 1000),
          target_kind: d.target_kind,
        },
      }).catch((err: Error) => {
        opts.logger.warn('account event not published', { kind: 'ordering_key_stuck', error: err.message });
      }),
  });
  const ordered = createOrderedConsumers({
    channel: opts.channel,
    namespace: opts.namespace,
    broker: opts.broker,
    logger: opts.logger,
    prefetch: opts.ordering.prefetch,
    holdMaxMs: opts.ordering.holdMaxMs,
    held,
    sweepMs: Math.min(1000, opts.ordering.stuckAfterMs),
    balanceMs: opts.ordering.balanceMs,
    deps,
    counted,
  });
  return {
    async start() {
      await work.start();
      await ordered.start();
    },
    async stop(graceMs) {
      await Promise.all([work.stop(graceMs), ordered.stop(graceMs)]);
    },
    isConsuming: () => work.isConsuming() && ordered.isConsuming(),
  };
}
