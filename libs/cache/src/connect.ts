import type { Logger } from '@relay/logging';
import { ChangeFeed } from './change-feed';
import { createChangePublisher } from './change-publisher';
import { connectRedis } from './redis';
import type { ChangePublisher } from './change-publisher';
import type { RedisClient } from './redis';

export interface ChangeConnections {
  feed: ChangeFeed;
  /** for a process that changes settings itself (a deliverer flagging a target) */
  publisher: ChangePublisher;
  /** the commands connection (fails fast while Redis is down), for a process's other small Redis needs (a deliverer's target gate) */
  commands: RedisClient;
  /** stops the checks, the retries and both connections */
  close(): Promise<void>;
}

/**
 * The change feed on connections of its own, for a process that has no other use for Redis
 * (the deliverers): one subscribed connection, one for the counter and publishing. Commands fail
 * fast while Redis is down, so a check never waits on it.
 */
export function connectChangeFeed(opts: {
  redisUrl: string;
  namespace: string;
  checkIntervalMs: number;
  sweepIntervalMs: number;
  logger: Logger;
}): ChangeConnections {
  const subscriber = connectRedis(opts.redisUrl);
  const commands = connectRedis(opts.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  for (const r of [subscriber, commands])
    r.on('error', (err: Error) => opts.logger.warn('redis error', { error: err.message }));
  const feed = new ChangeFeed({
    subscriber,
    commands,
    namespace: opts.namespace,
    logger: opts.logger,
    checkIntervalMs: opts.checkIntervalMs,
    sweepIntervalMs: opts.sweepIntervalMs,
  });
  const publisher = createChangePublisher(commands, opts.namespace, opts.logger);
  return {
    feed,
    publisher,
    commands,
    async close() {
      feed.stop();
      publisher.close();
      await Promise.all([subscriber.quit(), commands.quit()]);
    },
  };
}
