import { createServer } from 'node:http';
import { hostname } from 'node:os';
import path from 'node:path';
import {
  AlertEvaluator,
  AlertRuleStore,
  consumeAccountEvents,
  CounterDetector,
  createAlertMetrics,
  runDetector,
} from '@relay/alerts';
import {
  BrokerConnection,
  ConfirmPublisher,
  createActivityPublisher,
  deleteCliBacklog,
  DeliveryPublisher,
} from '@relay/broker';
import { connectRedis } from '@relay/cache';
import { ConfigError, loadConfig } from '@relay/config';
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
import { createInternalSigner, createSecretBox } from '@relay/secrets';
import { createDefaultRegistry, createSender, SESSION_LEASE_MS, smtpRelayOf } from '@relay/targets';
import { createAccountLock } from './adapters/account-lock';
import { createResendAllowance } from './adapters/resend-allowance';
import { MAX_RESENT_DELIVERIES_PER_EVENT } from './domain/resend';
import { createActionLimiter } from './adapters/action-limiter';
import { createBulkRetryRunner } from './adapters/bulk-retry-runner';
import { BulkRetryStore } from './adapters/bulk-retry-store';
import { createGatewayClient } from './adapters/gateway-client';
import { createTargetBreakers } from './adapters/target-breakers';
import { createHeldKeysReader } from './adapters/held-keys';
import { createInvalidator } from './adapters/invalidation';
import { createCliSessionSlots } from './adapters/cli-session-slots';
import { createInvitationMailer } from './adapters/invitation-mail';
import { createRelyingParty } from './adapters/oidc-relying-party';
import { createSessionStore } from './adapters/sessions';
import { createSignInAttempts } from './adapters/sign-in-attempts';
import { createDailyUsageReader, createUsageCounter } from './adapters/usage-counter';
import { createApp } from './app';
import { configSpec } from './config';
import { attachListen } from './transport/listen';
import { createApiServer } from './transport/server';

/** A person has this long at their identity provider between leaving the dashboard and coming back. */
const SIGN_IN_ATTEMPT_MS = 600_000;

runMain(async () => {
  const config = loadConfig(configSpec, process.env);
  const logger = createLogger({ service: 'management-api', level: config.logLevel });
  const secrets = createSecretBox(config.secretsKeys);
  const smtp = smtpRelayOf(config);
  if (smtp.problems.length > 0) throw new ConfigError(smtp.problems);
  const store = await connectStore(config.mongodbUrl);
  const redis = connectRedis(config.redisUrl, { maxRetriesPerRequest: 1 });
  redis.on('error', (err: Error) => logger.warn('redis error', { error: err.message }));

  // Resends and bulk retries publish deliveries. Endpoint management does not need the broker,
  // so the API starts and stays ready without it; those routes answer 503 until it is back.
  const broker = new BrokerConnection({
    url: config.rabbitmqUrl,
    connectionName: `management-api ${hostname()}:${process.pid}`,
    logger,
    topology: { namespace: config.namespace, deliveryLimit: config.deliveryLimit },
  });
  broker
    .start()
    .catch((err: Error) =>
      logger.warn('broker not reached yet; resends and bulk retries wait for it', { error: err.message }),
    );
  const confirmPublisher = new ConfirmPublisher(broker, config.publishConfirmTimeoutMs);
  const deliveries = new DeliveryPublisher(confirmPublisher, config.namespace);
  // Alerts (docs/alerts.md "Where the evaluator runs"): every instance consumes account events and
  // takes turns checking the counters; episodes are deduplicated in Redis across instances.
  const metrics = createMetricsRegistry();
  const alertRules = new AlertRuleStore(store);
  await alertRules.ensureIndexes();
  const evaluator = new AlertEvaluator({
    store,
    rules: alertRules,
    redis,
    publisher: confirmPublisher,
    namespace: config.namespace,
    logger,
    dashboardUrl: config.dashboardUrl,
    meter: createAlertMetrics(metrics),
  });
  const accountEvents = consumeAccountEvents(broker, config.namespace, evaluator, logger);
  await accountEvents.start();
  const detector = runDetector(
    new CounterDetector({
      redis,
      store,
      namespace: config.namespace,
      logger,
      fire: (rule, c, e) => evaluator.fire(rule, c, e),
    }),
    redis,
    config.namespace,
    config.alertDetectIntervalMs,
    logger,
  );
  const limits = createActionLimiter(redis, config.namespace, logger);
  const jobs = new BulkRetryStore(store);
  const activityLog = openActivityLog(store.connection, config.activityLogDriver);
  const retentionMs = config.activityRetentionDays * 86_400_000;
  const resendAllowance = createResendAllowance(redis, config.namespace, MAX_RESENT_DELIVERIES_PER_EVENT, retentionMs);
  const runner = createBulkRetryRunner({
    store,
    activityLog,
    jobs,
    deliveries,
    allowance: resendAllowance,
    logger,
    leaseMs: config.bulkRetryLeaseMs,
    pollMs: config.bulkRetryPollMs,
    keepFinishedMs: retentionMs,
  });

  const readiness = { mongodb: () => store.ping(), redis: () => redis.status === 'ready' };
  const announceChange = createInvalidator(redis, config.namespace, logger);
  const app = createApp({
    store,
    activityLog,
    registry: createDefaultRegistry({ secrets }),
    secrets,
    logger,
    publicBaseUrl: config.publicBaseUrl,
    announceChange,
    breakers: createTargetBreakers(redis, config.namespace, store, announceChange),
    heldKeys: createHeldKeysReader(redis, config.namespace),
    dropCliBacklog: (targetId) => deleteCliBacklog(broker, config.namespace, targetId),
    acceptedEvents: createUsageCounter(redis, config.namespace),
    dailyUsage: createDailyUsageReader(redis, config.namespace),
    accountLock: createAccountLock(redis, config.namespace),
    readiness,
    activityRetentionDays: config.activityRetentionDays,
    dashboard: {
      sessions: createSessionStore(redis, config.namespace, secrets, {
        idleMs: config.dashboardSessionIdleMinutes * 60_000,
        absoluteMs: config.dashboardSessionMaxHours * 3_600_000,
      }),
      staticDir: path.resolve(__dirname, '../dashboard/dist'),
    },
    members: {
      // discovery documents and key sets are small; a larger answer is not a provider's
      relyingParty: createRelyingParty(
        createSender({
          timeoutMs: 10_000,
          allowCidrs: config.ssrfAllowCidrs,
          maxResponseBytes: 65_536,
          responseLimitBytes: 65_536,
        }),
      ),
      attempts: createSignInAttempts(redis, config.namespace, secrets, SIGN_IN_ATTEMPT_MS),
      ...(smtp.relay ? { mailer: createInvitationMailer(smtp.relay) } : {}),
      dashboardUrl: config.dashboardUrl,
      invitationTtlMs: config.invitationTtlHours * 3_600_000,
    },
    alerts: { store, rules: alertRules, evaluator, redis, namespace: config.namespace, limits, now: () => new Date() },
    replay: {
      store,
      activityLog,
      logger,
      now: () => new Date(),
      gateway: createGatewayClient({
        baseUrl: config.gatewayInternalUrl,
        signer: createInternalSigner(config.secretsKeys, 'test-request'),
        timeoutMs: 30_000,
      }),
      deliveries,
      limits,
      resendAllowance,
      jobs,
      retentionMs,
      testRequestsPerMinute: config.testRequestsPerMinute,
      resendsPerMinute: config.resendsPerMinute,
      bulkRetryMaxRate: config.bulkRetryMaxRate,
    },
  });
  // /metrics only on HEALTH_PORT, like every service: the API port may be published to operators' tools
  const ops = createHealthApp(readiness);
  mountMetrics(ops, metrics);
  const server = createApiServer(app, {
    headersTimeoutMs: config.headersTimeoutMs,
    bodyTimeoutMs: config.bodyTimeoutMs,
    maxConnections: config.maxConnections,
  });
  // `relay listen` sessions: WebSocket upgrades on the API port (docs/cli.md); the attempts of
  // deliveries they drain from a backlog go to the activity log as the deliverer's do
  const drainedAttempts = createActivityPublisher(confirmPublisher, config.namespace);
  const listenSessions = attachListen(server, {
    store,
    broker,
    namespace: config.namespace,
    slots: createCliSessionSlots(redis, config.namespace, SESSION_LEASE_MS),
    recordAttempt: (attempt) => drainedAttempts.publish(attempt),
    logger,
  });
  const health = createServer(ops);
  const port = await listen(server, config.port, config.host);
  const healthPort = await listen(health, config.healthPort, config.host);
  logger.info('management API listening', { port, health_port: healthPort });
  runner.start();

  onShutdown(logger, config.shutdownGraceMs, [
    () => listenSessions.close(),
    () => closeServer(server),
    () => runner.stop(),
    () => accountEvents.stop(config.shutdownGraceMs),
    () => detector.stop(),
    () => broker.close(),
    async () => smtp.relay?.transport.close(),
    () => redis.quit(),
    () => store.close(),
    () => closeServer(health),
  ]);
});
