import { createServer } from 'node:http';
import { hostname } from 'node:os';
import {
  BrokerConnection,
  CliForwarder,
  deliveryQueuesOf,
  QUEUE_STATS_CACHE_MS,
  QueueStatsReader,
  registerBrokerMetrics,
  registerQueueMetrics,
} from '@relay/broker';
import { connectChangeFeed } from '@relay/cache';
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
import { createSecretBox } from '@relay/secrets';
import { startTracing, stopTracing } from '@relay/telemetry';
import { connectStore } from '@relay/store';
import { CLI_BACKLOG, createDefaultRegistry, createSender } from '@relay/targets';
import { channelVar, configSpecFor } from './config';
import { retryPolicyOf } from './delivery/config';
import { createDeliverer } from './delivery/worker';
import { outputTransports } from './outputs';

/*
 * Consumes one delivery queue, DELIVERY_CHANNEL: `webhook`, `chat` (embed- and block-style
 * targets) or `outputs` (email and spreadsheet targets, with the mail relay and the route to
 * Google). Scale each channel by running more instances of it. Targets sign and authenticate
 * with secrets stored sealed, so the registry gets the secret box.
 */
runMain(async () => {
  const { channel } = loadConfig(channelVar, process.env);
  const config = loadConfig(configSpecFor(channel), process.env);
  const outputs = channel === 'outputs' ? outputTransports(config) : null;
  // built before any connection, so a HOST_ROUTES entry the SSRF guard refuses stops the start
  const send = createSender({
    timeoutMs: config.requestTimeoutMs,
    allowCidrs: config.ssrfAllowCidrs,
    hostRoutes: config.hostRoutes,
  });
  const service = `${channel}-deliverer`;
  const logger = createLogger({ service, level: config.logLevel });
  // off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/observability.md "Traces")
  if (startTracing(service)) logger.info('tracing on: spans exported by OTLP');
  const retry = retryPolicyOf(config);
  const store = await connectStore(config.mongodbUrl);
  const broker = new BrokerConnection({
    url: config.rabbitmqUrl,
    connectionName: `${service} ${hostname()}:${process.pid}`,
    logger,
    // this channel's delay tiers are declared with the rest, idempotently, on every (re)connect
    topology: {
      namespace: config.namespace,
      deliveryLimit: config.deliveryLimit,
      retryDelaysMs: { [channel]: retry.tiersMs },
    },
  });
  await broker.start();
  // the outputs channel also runs the CLI session kind: forwards to `relay listen` sessions over the broker (docs/cli.md)
  const cli = outputs ? new CliForwarder(broker, config.namespace, logger, CLI_BACKLOG) : null;
  await cli?.start();
  const metrics = createMetricsRegistry();
  // the depth of this channel's work, retry and dead-letter queues, for scaling and alerts
  registerQueueMetrics(
    metrics,
    new QueueStatsReader({
      broker,
      queues: deliveryQueuesOf(config.namespace, channel, retry.tiersMs),
      cacheMs: QUEUE_STATS_CACHE_MS,
    }),
  );
  registerBrokerMetrics(metrics, broker);

  // target settings are cached until the management API (or another deliverer) announces a change
  const changes = connectChangeFeed({
    redisUrl: config.redisUrl,
    namespace: config.namespace,
    checkIntervalMs: config.cacheCheckIntervalMs,
    sweepIntervalMs: config.cacheSweepIntervalMs,
    logger,
  });
  const deliverer = createDeliverer({
    channel,
    namespace: config.namespace,
    broker,
    store,
    registry: createDefaultRegistry({
      secrets: createSecretBox(config.secretsKeys),
      ...(outputs?.mail ? { mail: outputs.mail } : {}),
      ...(outputs
        ? {
            google: outputs.google,
            redis: outputs.redis,
            amqp: outputs.amqp,
            mqtt: outputs.mqtt,
            nats: outputs.nats,
            sqs: outputs.sqs,
            s3: outputs.s3,
            kafka: outputs.kafka,
          }
        : {}),
      ...(cli ? { cli } : {}),
    }),
    send,
    logger,
    prefetch: config.prefetch,
    targetCacheMax: config.targetCacheMax,
    changes,
    revalidation: { batchSize: config.cacheRevalidateBatch, pauseMs: config.cacheRevalidatePauseMs },
    confirmTimeoutMs: config.confirmTimeoutMs,
    retry,
    flagAfterPermanentFailures: config.flagAfterPermanentFailures,
    metrics,
    ordering: {
      prefetch: config.orderingPrefetch,
      holdMaxMs: config.orderingHoldMaxMs,
      stuckAfterMs: config.orderingStuckAfterMs,
      balanceMs: config.orderingBalanceMs,
    },
  });
  // a changed or deleted target's own connections (its broker's, its mutual TLS) end now, not when they idle out
  changes.feed.onChange((change) => {
    if (change.scope === 'account') return;
    send.release(change.id);
    outputs?.release(change.id);
  });
  await changes.feed.start();
  await deliverer.start();

  const ops = createHealthApp({ broker: () => broker.isUp() && deliverer.isConsuming(), mongodb: () => store.ping() });
  mountMetrics(ops, metrics);
  const health = createServer(ops);
  const port = await listen(health, config.healthPort, config.host);
  logger.info('deliverer consuming', {
    channel,
    health_port: port,
    host: config.host,
    prefetch: config.prefetch,
    retry_tiers_ms: retry.tiersMs,
  });

  // stop consuming and drain in-flight deliveries before the connections close
  onShutdown(logger, config.shutdownGraceMs, [
    () => deliverer.stop(config.shutdownGraceMs),
    () => closeServer(health),
    () => broker.close(),
    () => changes.close(),
    () => store.close(),
    async () => outputs?.close(),
    () => stopTracing(),
  ]);
});
