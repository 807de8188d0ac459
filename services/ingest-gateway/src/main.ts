import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { hostname } from 'node:os';
import { CounterBuffer } from '@relay/alerts';
import {
  BrokerConnection,
  ConfirmPublisher,
  createPayloadPublisher,
  publishAccountEvent,
  registerBrokerMetrics,
} from '@relay/broker';
import { ChangeFeed, connectRedis, createCacheMetrics } from '@relay/cache';
import { loadConfig } from '@relay/config';
import { TEST_REQUEST_ROUTE } from '@relay/contracts';
import { createLogger } from '@relay/logging';
import { closeServer, createMetricsRegistry, listen, onShutdown, runMain } from '@relay/runtime';
import { startTracing, stopTracing, tracedMethods } from '@relay/telemetry';
import { createInternalSigner, createSecretBox } from '@relay/secrets';
import { connectStore } from '@relay/store';
import { createSender } from '@relay/targets';
import { createActivityRecorder } from './adapters/activity-recorder';
import { createActivitySpool } from './adapters/activity-spool';
import { countingOutcomes } from './adapters/outcome-counter';
import { createCaptchaVerifier } from './adapters/captcha-verifier';
import { createProviderCalls, MAX_CERTIFICATE_BYTES } from './adapters/signing-certificates';
import { EndpointCache } from './adapters/endpoint-cache';
import { createEndpointLoader } from './adapters/endpoint-loader';
import { createEventPublisher } from './adapters/event-publisher';
import { createIdempotencyStore } from './adapters/idempotency-store';
import { createQuarantineBound } from './adapters/quarantine-bound';
import { createDriftLearner } from './adapters/payload-drift';
import { createPayloadRecorder } from './adapters/payload-recorder';
import { createReplayMetrics } from './adapters/replay-metrics';
import { createRedisLimiter, LATE_ANSWER_MS, limiterRedisOptions } from './adapters/limiter/redis-limiter';
import { createGatewayMetrics, registerSpoolLength } from './adapters/metrics';
import { createApp } from './app';
import { configSpec } from './config';
import { createOpsApp } from './ops-app';
import { createRulePool } from './adapters/rule-pool/pool';
import { createIngestServer } from './transport/server';
import { testRequestHandler } from './transport/test-request-route';

runMain(async () => {
  const config = loadConfig(configSpec, process.env);
  const logger = createLogger({ service: 'ingest-gateway', level: config.logLevel });
  // off unless OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/observability.md "Traces")
  if (startTracing('ingest-gateway')) logger.info('tracing on: spans exported by OTLP');
  const instanceId = `${hostname()}:${process.pid}`;
  const secrets = createSecretBox(config.secretsKeys);
  const metrics = createGatewayMetrics(createMetricsRegistry());

  const store = await connectStore(config.mongodbUrl);
  const redis = connectRedis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  const subscriber = connectRedis(config.redisUrl);
  // the quick connection (the quarantine bound), so its short command timeout never cuts a
  // spool drain; and the limiter's and idempotency keys', which decide after their own deadline
  // but still read a late answer
  const quickRedis = connectRedis(config.redisUrl, limiterRedisOptions(config.limiterTimeoutMs));
  const lateAnswerRedis = connectRedis(config.redisUrl, limiterRedisOptions(LATE_ANSWER_MS));
  for (const r of [redis, subscriber, quickRedis, lateAnswerRedis])
    r.on('error', (err: Error) => logger.warn('redis error', { error: err.message }));
  const broker = new BrokerConnection({
    url: config.rabbitmqUrl,
    connectionName: `ingest-gateway ${instanceId}`,
    logger,
    topology: { namespace: config.namespace, deliveryLimit: config.deliveryLimit },
  });
  await broker.start();

  const publisher = new ConfirmPublisher(broker, config.publishConfirmTimeoutMs, (result) =>
    metrics.publishes.inc({ result }),
  );
  const events = createEventPublisher(publisher, config.namespace);
  const replayMetrics = createReplayMetrics(metrics.registry);
  const payloadPublisher = createPayloadPublisher(publisher, config.namespace);
  const spool = createActivitySpool(redis, config.namespace, instanceId, logger);
  registerSpoolLength(metrics.registry, () => spool.length());
  registerBrokerMetrics(metrics.registry, broker);
  const cacheMetrics = createCacheMetrics(metrics.registry);
  const endpoints = new EndpointCache({
    loader: createEndpointLoader(
      store,
      logger,
      (sealed) => secrets.decrypt(sealed),
      config.endpointCacheMax,
      cacheMetrics,
    ),
    maxEntries: config.endpointCacheMax,
    staleIfErrorMs: config.endpointStaleIfErrorMs,
    loadTimeoutMs: config.endpointLoadTimeoutMs,
    logger,
    onLookupFailure: (served) => metrics.endpointLookupFailures.inc({ served }),
  });
  // endpoints are kept until a change announcement (or a revalidation pass) says otherwise
  const feed = new ChangeFeed({
    subscriber,
    commands: redis,
    namespace: config.namespace,
    logger,
    checkIntervalMs: config.cacheCheckIntervalMs,
    sweepIntervalMs: config.cacheSweepIntervalMs,
  });
  endpoints.follow(
    feed,
    { batchSize: config.cacheRevalidateBatch, pauseMs: config.cacheRevalidatePauseMs },
    cacheMetrics,
  );
  await feed.start();

  const stopDraining = spool.drainEvery(
    config.spoolDrainIntervalMs,
    (row) => events.publishActivity(row),
    () => broker.isUp(),
  );

  // per-endpoint outcome counts for the alert rules (docs/alerts.md "Counters"), written every few seconds
  const outcomeCounts = new CounterBuffer({
    redis,
    namespace: config.namespace,
    onError: (err) => logger.warn('alert counters not written', { error: err.message }),
  });
  const rules = createRulePool({
    filename: path.join(__dirname, 'adapters/rule-pool/worker.js'),
    size: config.rulesPoolSize,
    deadlineMs: config.rulesDeadlineMs,
    inlineCost: config.rulesInlineCost,
    queueMax: config.rulesPoolQueue,
    accountMax: config.rulesPoolAccountMax,
    logger,
    onAnswer: (result) => metrics.rulePool.inc({ result }),
  });
  // built before any connection, so a HOST_ROUTES entry the SSRF guard refuses stops the start
  const providerCalls = createProviderCalls({
    send: createSender({
      timeoutMs: config.providerCertTimeoutMs,
      allowCidrs: config.ssrfAllowCidrs,
      hostRoutes: config.hostRoutes,
      maxResponseBytes: MAX_CERTIFICATE_BYTES,
      responseLimitBytes: MAX_CERTIFICATE_BYTES,
    }),
    extraAnchors: config.extraCaCerts === '' ? '' : readFileSync(config.extraCaCerts, 'utf8'),
    maxEntries: config.providerCertCacheMax,
    maxAgeMs: config.providerCertMaxAgeS * 1000,
    logger,
  });
  // payload shapes of preset endpoints, learned after the answer (docs/contracts.md "Drift")
  const drift = createDriftLearner({
    redis,
    namespace: config.namespace,
    logger,
    publish: (event) => publishAccountEvent(publisher, config.namespace, event),
  });
  const deps = {
    certificates: tracedMethods(providerCalls.certificates, { get: 'signing certificate' }),
    subscriptions: tracedMethods(providerCalls.subscriptions, { confirm: 'sns subscription confirmation' }),
    // the steps that wait on something, each a span of the event's trace when tracing is on
    endpoints: tracedMethods(endpoints, { get: 'endpoint lookup' }),
    events: tracedMethods(events, { publishDeliveries: 'publish deliveries' }),
    activity: countingOutcomes(createActivityRecorder(events, spool, logger), outcomeCounts),
    limiter: tracedMethods(
      createRedisLimiter({
        redis: lateAnswerRedis,
        decisionTimeoutMs: config.limiterTimeoutMs,
        namespace: config.namespace,
        logger,
        fallbackCounter: metrics.limiterFallback,
      }),
      { admit: 'limits' },
    ),
    captcha: createCaptchaVerifier({
      send: createSender({ timeoutMs: config.captchaTimeoutMs, allowCidrs: config.ssrfAllowCidrs }),
      logger,
      unavailableCounter: metrics.captchaUnavailable,
    }),
    payloads: createPayloadRecorder(payloadPublisher, logger, () => replayMetrics.payloadsLost.inc()),
    idempotency: tracedMethods(
      createIdempotencyStore({
        redis: lateAnswerRedis,
        deadlineMs: config.limiterTimeoutMs,
        namespace: config.namespace,
        windowMs: config.idempotencyWindowS * 1000,
        logger,
        onUnavailable: () => replayMetrics.idempotencyUnavailable.inc(),
      }),
      { claim: 'idempotency claim' },
    ),
    rules,
    quarantine: createQuarantineBound({
      redis: quickRedis,
      namespace: config.namespace,
      perHour: config.quarantinePerAccountPerHour,
      logger,
    }),
    drift,
    logger,
    metrics,
    maxBodyBytes: config.maxBodyBytes,
    bodyTimeoutMs: config.bodyTimeoutMs,
    publicBaseUrl: config.publicBaseUrl || null,
    trustProxyHops: config.trustProxyHops,
    now: () => new Date(),
  };
  const app = createApp(deps);
  const ops = createOpsApp({
    metrics,
    // the envelope carries the body as base64 (4/3) plus headers and the query string
    testRequests: {
      path: TEST_REQUEST_ROUTE,
      handler: testRequestHandler({ ...deps, signer: createInternalSigner(config.secretsKeys, 'test-request') }),
      maxBytes: Math.ceil((config.maxBodyBytes * 4) / 3) + 65536,
    },
    readiness: {
      broker: () => broker.isUp(),
      // Redis being down does not stop ingest (the per-process limiter takes over), but the
      // spool and change announcements need it: an operator should see it here.
      redis: () => redis.status === 'ready',
      mongodb: () => store.ping(),
    },
  });
  const server = createIngestServer(app, {
    headersTimeoutMs: config.headersTimeoutMs,
    bodyTimeoutMs: config.bodyTimeoutMs,
    logger,
    onClientError: (code) => metrics.requests.inc({ outcome: code }),
  });
  const health = createServer(ops);
  const port = await listen(server, config.port, config.host);
  const healthPort = await listen(health, config.healthPort, config.host);
  logger.info('ingest gateway listening', { port, health_port: healthPort });

  onShutdown(logger, config.shutdownGraceMs, [
    () => closeServer(server),
    async () => stopDraining(),
    async () => {
      await drift.settled();
      await outcomeCounts.flush();
      payloadPublisher.flush();
      await events.settle(config.publishConfirmTimeoutMs);
    },
    () => broker.close(),
    async () => feed.stop(),
    () => Promise.all([redis.quit(), subscriber.quit(), quickRedis.quit(), lateAnswerRedis.quit()]),
    () => store.close(),
    () => rules.close(),
    () => closeServer(health),
    () => stopTracing(),
  ]);
});
