import { createServer } from 'node:http';
import { hostname } from 'node:os';
import { BrokerConnection, QueueConsumer } from '@relay/broker';
import type { Disposition } from '@relay/broker';
import { loadConfig } from '@relay/config';
import { ACTIVITY_ATTEMPT_V1, ACTIVITY_REQUEST_V1, ContractError, brokerNames, decodeMessage } from '@relay/contracts';
import type { ActivityMessage } from '@relay/contracts';
import { createLogger } from '@relay/logging';
import { closeServer, createHealthApp, listen, onShutdown, runMain } from '@relay/runtime';
import { connectStore } from '@relay/store';
import { createActivityWriter } from './adapters/activity-store';
import { configSpec } from './config';
import { Batcher } from './transport/batcher';

runMain(null, async () => {
  const config = loadConfig(configSpec, process.env);
  const logger = createLogger({ service: 'activity-writer', level: config.logLevel });
  const store = await connectStore(config.mongodbUrl);
  const broker = new BrokerConnection({
    url: config.rabbitmqUrl,
    connectionName: `activity-writer ${hostname()}:${process.pid}`,
    logger,
    topology: { namespace: config.namespace, deliveryLimit: config.deliveryLimit },
  });
  await broker.start();

  const writer = createActivityWriter(store);
  const batcher = new Batcher<ActivityMessage>(config.batchSize, config.batchMaxWaitMs, async (messages) => {
    const started = performance.now();
    await writer.write(messages);
    logger.debug('activity batch written', { count: messages.length, duration_ms: Math.round(performance.now() - started) });
  });

  const consumer = new QueueConsumer(broker, {
    queue: brokerNames(config.namespace).activityQueue,
    prefetch: config.prefetch,
    logger,
    handler: async (msg): Promise<Disposition> => {
      let message: ActivityMessage;
      try {
        message = decodeMessage(msg.content, [ACTIVITY_REQUEST_V1, ACTIVITY_ATTEMPT_V1]);
      } catch (err) {
        if (err instanceof ContractError) {
          logger.error('invalid activity message dead-lettered', { error: err.message });
          return 'dead_letter';
        }
        throw err;
      }
      await batcher.add(message); // rejects when the bulk write failed → requeued
      return 'ack';
    },
  });
  await consumer.start();

  const health = createServer(createHealthApp({ broker: () => broker.isUp() && consumer.isConsuming(), mongodb: () => store.ping() }));
  const port = await listen(health, config.healthPort, '0.0.0.0');
  logger.info('activity writer consuming', { health_port: port, batch_size: config.batchSize });

  onShutdown(logger, config.shutdownGraceMs, [
    async () => {
      const stopping = consumer.stop(config.shutdownGraceMs);
      batcher.flush();
      await stopping;
    },
    () => closeServer(health),
    () => broker.close(),
    () => store.close(),
  ]);
});
