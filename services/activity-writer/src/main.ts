import { createServer } from 'node:http';
import { hostname } from 'node:os';
import {
  activityQueuesOf,
  BrokerConnection,
  ConfirmPublisher,
  createActivityPublisher,
  QUEUE_STATS_CACHE_MS,
  QueueStatsReader,
  registerBrokerMetrics,
  registerQueueMetrics,
} from '@relay/broker';
import { loadConfig } from '@relay/config';
import { createLogger } from '@relay/logging';
import {
  closeServer,
  createHealthApp,
  createMetricsRegistry,
  listen,
  mountMetrics,
  onShutdown,
  runMain,
} from '@relay/runtime';
import { openActivityLog } from '@relay/activity-log';
import { connectStore } from '@relay/store';
import { startTracing, stopTracing } from '@relay/telemetry';
import { createWriterMetrics } from './adapters/metrics';
import { startRetention } from './adapters/retention';
import { configSpec } from './config';
import { createActivityConsumers } from './transport/consumer';
import { createPayloadConsumer } from './transport/payload-consumer';

runMain(async () => {
  const config = loadConfig(configSpec, process.env);
  const logger = createLogger({ service: 'activity-writer', level: config.logLevel });
  // off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/observability.md "Traces")
  if (startTracing('activity-writer')) logger.info('tracing on: spans exported by OTLP');
  const store = await connectStore(config.mongodbUrl);
  const broker = new BrokerConnection({
    url: config.rabbitmqUrl,
    connectionName: `activity-writer ${hostname()}:${process.pid}`,
    logger,
    topology: { namespace: config.namespace, deliveryLimit: config.deliveryLimit },
  });
  await broker.start();

  const retentionMs = config.activityRetentionDays * 86_400_000;
  let metrics: ReturnType<typeof createWriterMetrics> | null = null;
  const writer = openActivityLog(store.connection, config.activityLogDriver).writer({
    indexWaitMs: config.indexWaitMs,
    indexMaxWaitMs: config.indexMaxWaitMs,
    holdMs: config.holdMs,
    maxHeld: config.maxHeld,
    batchSize: config.batchSize,
    maxWaitMs: config.batchMaxWaitMs,
    payloadMessagesPerFlush: config.payloadPrefetch,
    keepPerMinute: config.keepPerMinute,
    retentionMs,
    onFlush: (s) => {
      metrics?.rowsWritten.inc({ kind: 'inserted' }, s.inserted);
      metrics?.rowsWritten.inc({ kind: 'updated' }, s.updated);
      metrics?.rowsWritten.inc({ kind: 'late_attempts' }, s.late);
      metrics?.rowsWritten.inc({ kind: 'aggregated' }, s.aggregated);
      metrics?.rowsWritten.inc({ kind: 'payloads' }, s.payloads);
      metrics?.recordsWritten.inc(s.messages);
      metrics?.flushes.inc();
      metrics?.flushSeconds.inc(s.duration_ms / 1000);
      logger.debug('activity flush written', { ...s });
    },
    onExpired: (m) => {
      metrics?.expiredDropped.inc();
      logger.warn('activity message older than the retention period dropped', { event_id: m.event_id, type: m.type });
    },
  });
  metrics = createWriterMetrics(writer, createMetricsRegistry());
  registerQueueMetrics(
    metrics.registry,
    new QueueStatsReader({ broker, queues: activityQueuesOf(config.namespace), cacheMs: QUEUE_STATS_CACHE_MS }),
  );
  registerBrokerMetrics(metrics.registry, broker);
  // what is left in the queue of before partitions is moved to the partitions (transport/consumer.ts)
  const forward = createActivityPublisher(new ConfirmPublisher(broker, 10_000), config.namespace);
  const consumer = createActivityConsumers(broker, writer, forward, {
    namespace: config.namespace,
    prefetch: config.prefetch,
    logger,
    balanceMs: config.balanceMs,
    onHandover: (h) => {
      metrics?.handovers.inc({ direction: h.direction });
      if (h.direction === 'given') metrics?.handoverSettleSeconds.inc(h.settle_ms / 1000);
    },
  });
  await consumer.start();
  const payloads = createPayloadConsumer(broker, writer, {
    namespace: config.namespace,
    prefetch: config.payloadPrefetch,
    logger,
  });
  await payloads.start();
  const retention = startRetention(writer, {
    retentionMs,
    intervalMs: config.retentionSweepMs,
    logger,
    onDropped: (n) => metrics?.retentionDropped.inc(n),
  });

  const app = createHealthApp({
    broker: () => broker.isUp() && consumer.isConsuming() && payloads.isConsuming(),
    mongodb: () => store.ping(),
  });
  mountMetrics(app, metrics.registry);
  const health = createServer(app);
  const port = await listen(health, config.healthPort, config.host);
  logger.info('activity writer consuming', {
    health_port: port,
    host: config.host,
    prefetch: config.prefetch,
    hold_ms: config.holdMs,
    index_wait_ms: config.indexWaitMs,
    retention_days: config.activityRetentionDays,
  });

  onShutdown(logger, config.shutdownGraceMs, [
    async () => {
      retention.stop();
      const stopping = Promise.all([consumer.stop(config.shutdownGraceMs), payloads.stop(config.shutdownGraceMs)]);
      await writer.drain();
      await stopping;
    },
    () => closeServer(health),
    () => broker.close(),
    () => store.close(),
    () => stopTracing(),
  ]);
});
