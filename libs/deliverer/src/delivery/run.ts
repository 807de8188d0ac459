import { createServer } from 'node:http';
import { hostname } from 'node:os';
import { BrokerConnection } from '@relay/broker';
import type { DeliveryChannel } from '@relay/contracts';
import { createLogger } from '@relay/logging';
import { closeServer, createHealthApp, listen, onShutdown } from '@relay/runtime';
import { createSecretBox } from '@relay/secrets';
import { connectStore } from '@relay/store';
import { createDefaultRegistry, createSender } from '@relay/targets';
import { retryPolicyOf } from './config';
import type { DelivererConfig } from './config';
import { createDeliverer } from './worker';

/**
 * Wires one deliverer process: store, broker, the SSRF-guarded sender, the consumer of
 * `channel`'s queue and its health server; SIGTERM stops consuming and drains in-flight
 * deliveries before closing connections.
 */
export async function runDeliverer(service: string, channel: DeliveryChannel, config: DelivererConfig): Promise<void> {
  const logger = createLogger({ service, level: config.logLevel });
  const retry = retryPolicyOf(config);
  const registry = createDefaultRegistry({ secrets: createSecretBox(config.secretsKeys) });
  const send = createSender({ timeoutMs: config.requestTimeoutMs, allowCidrs: config.ssrfAllowCidrs });
  const store = await connectStore(config.mongodbUrl);
  const broker = new BrokerConnection({
    url: config.rabbitmqUrl,
    connectionName: `${service} ${hostname()}:${process.pid}`,
    logger,
    // this channel's delay tiers are declared with the rest, idempotently, on every (re)connect
    topology: { namespace: config.namespace, deliveryLimit: config.deliveryLimit, retryDelaysMs: { [channel]: retry.tiersMs } },
  });
  await broker.start();

  const deliverer = createDeliverer({
    channel,
    namespace: config.namespace,
    broker,
    store,
    registry,
    send,
    logger,
    prefetch: config.prefetch,
    targetCacheTtlMs: config.targetCacheTtlMs,
    confirmTimeoutMs: config.confirmTimeoutMs,
    retry,
    flagAfterPermanentFailures: config.flagAfterPermanentFailures,
  });
  await deliverer.start();

  const health = createServer(createHealthApp({ broker: () => broker.isUp() && deliverer.isConsuming(), mongodb: () => store.ping() }));
  const port = await listen(health, config.healthPort, '0.0.0.0');
  logger.info('deliverer consuming', { channel, health_port: port, prefetch: config.prefetch, retry_tiers_ms: retry.tiersMs });

  onShutdown(logger, config.shutdownGraceMs, [
    () => deliverer.stop(config.shutdownGraceMs),
    () => closeServer(health),
    () => broker.close(),
    () => store.close(),
  ]);
}
