import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { loadConfig } from '@relay/config';
import { createLogger } from '@relay/logging';
import { closeServer, createHealthApp, createMetricsRegistry, listen, mountMetrics, onShutdown, runMain } from '@relay/runtime';
import { connectStore } from '@relay/store';
import { createSecretBox } from '@relay/secrets';
import { createDefaultRegistry } from '@relay/targets';
import { createInvalidator } from './adapters/invalidation';
import { createUsageCounter } from './adapters/usage-counter';
import { createApp } from './app';
import { configSpec } from './config';

runMain(async () => {
  const config = loadConfig(configSpec, process.env);
  const logger = createLogger({ service: 'management-api', level: config.logLevel });
  const secrets = createSecretBox(config.secretsKeys);
  const store = await connectStore(config.mongodbUrl);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1 });
  redis.on('error', (err: Error) => logger.warn('redis error', { error: err.message }));

  const readiness = { mongodb: () => store.ping(), redis: () => redis.status === 'ready' };
  const app = createApp({
    store,
    registry: createDefaultRegistry({ secrets }),
    secrets,
    logger,
    publicBaseUrl: config.publicBaseUrl,
    announceChange: createInvalidator(redis, config.namespace, logger),
    acceptedEvents: createUsageCounter(redis, config.namespace),
    readiness,
    activityRetentionDays: config.activityRetentionDays,
  });
  // /metrics only on HEALTH_PORT, like every service: the API port may be published to operators' tools
  const ops = createHealthApp(readiness);
  mountMetrics(ops, createMetricsRegistry());
  const server = createServer(app);
  const health = createServer(ops);
  const port = await listen(server, config.port, config.host);
  const healthPort = await listen(health, config.healthPort, config.host);
  logger.info('management API listening', { port, health_port: healthPort });

  onShutdown(logger, config.shutdownGraceMs, [() => closeServer(server), () => redis.quit(), () => store.close(), () => closeServer(health)]);
});
