import { createServer } from 'node:http';
import { hostname } from 'node:os';
import { BrokerConnection } from '@relay/broker';
import { loadConfig } from '@relay/config';
import { createLogger } from '@relay/logging';
import { closeServer, createHealthApp, listen, onShutdown, runMain } from '@relay/runtime';
import { connectStore } from '@relay/store';
import { createDeliverer, defaultRegistry, sendRequest } from '@relay/targets';
import { configSpec } from './config';

runMain(null, async () => {
  const config = loadConfig(configSpec, process.env);
  const logger = createLogger({ service: 'webhook-deliverer', level: config.logLevel });
  const store = await connectStore(config.mongodbUrl);
  const broker = new BrokerConnection({
    url: config.rabbitmqUrl,
    connectionName: `webhook-deliverer ${hostname()}:${process.pid}`,
    logger,
    topology: { namespace: config.namespace, deliveryLimit: config.deliveryLimit },
  });
  await broker.start();

  const deliverer = createDeliverer({
    channel: 'webhook',
    namespace: config.namespace,
    broker,
    store,
    registry: defaultRegistry,
    send: (req) => sendRequest(req, { timeoutMs: config.requestTimeoutMs }),
    logger,
    prefetch: config.prefetch,
    targetCacheTtlMs: config.targetCacheTtlMs,
    confirmTimeoutMs: 5000,
  });
  await deliverer.start();

  const health = createServer(createHealthApp({ broker: () => broker.isUp() && deliverer.isConsuming(), mongodb: () => store.ping() }));
  const port = await listen(health, config.healthPort, '0.0.0.0');
  logger.info('webhook deliverer consuming', { health_port: port, prefetch: config.prefetch });

  onShutdown(logger, config.shutdownGraceMs, [
    () => deliverer.stop(config.shutdownGraceMs),
    () => closeServer(health),
    () => broker.close(),
    () => store.close(),
  ]);
});
