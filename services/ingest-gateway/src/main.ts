import { createServer } from 'node:http';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { BrokerConnection, ConfirmPublisher } from '@relay/broker';
import { loadConfig } from '@relay/config';
import { createLogger } from '@relay/logging';
import { closeServer, listen, onShutdown, runMain } from '@relay/runtime';
import { connectStore } from '@relay/store';
import { createActivitySpool } from './adapters/activity-spool';
import { EndpointCache } from './adapters/endpoint-cache';
import { createEventPublisher } from './adapters/event-publisher';
import { createApp } from './app';
import { configSpec } from './config';

runMain(null, async () => {
  const config = loadConfig(configSpec, process.env);
  const logger = createLogger({ service: 'ingest-gateway', level: config.logLevel });
  const instanceId = `${hostname()}:${process.pid}`;

  const store = await connectStore(config.mongodbUrl);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  const subscriber = new Redis(config.redisUrl);
  for (const r of [redis, subscriber]) r.on('error', (err: Error) => logger.warn('redis error', { error: err.message }));
  const broker = new BrokerConnection({
    url: config.rabbitmqUrl,
    connectionName: `ingest-gateway ${instanceId}`,
    logger,
    topology: { namespace: config.namespace, deliveryLimit: config.deliveryLimit },
  });
  await broker.start();

  const publisher = new ConfirmPublisher(broker, config.publishConfirmTimeoutMs);
  const events = createEventPublisher(publisher, config.namespace);
  const spool = createActivitySpool(redis, config.namespace, instanceId, logger);
  const endpoints = new EndpointCache(store, config.endpointCacheTtlMs, logger);
  await endpoints.follow(subscriber, config.namespace);

  const drainTimer = setInterval(() => {
    if (!broker.isUp() || redis.status !== 'ready') return;
    spool
      .drain((row) => events.publishActivity(row))
      .then((n) => n > 0 && logger.info('spooled activity rows re-published', { count: n }))
      .catch((err: Error) => logger.warn('spool drain failed', { error: err.message }));
  }, config.spoolDrainIntervalMs);

  const app = createApp({
    endpoints,
    events,
    spool,
    logger,
    maxBodyBytes: config.maxBodyBytes,
    trustProxyHops: config.trustProxyHops,
    now: () => new Date(),
    readiness: {
      broker: () => broker.isUp(),
      redis: () => redis.status === 'ready',
      mongodb: () => store.ping(),
    },
  });
  const server = createServer(app);
  server.keepAliveTimeout = 65000;
  const port = await listen(server, config.port, config.host);
  logger.info('ingest gateway listening', { port });

  onShutdown(logger, config.shutdownGraceMs, [
    () => closeServer(server),
    async () => clearInterval(drainTimer),
    () => broker.close(),
    () => Promise.all([redis.quit(), subscriber.quit()]),
    () => store.close(),
  ]);
});
