import type { Redis } from 'ioredis';
import type { ActivityRequestV1 } from '@relay/contracts';
import type { Logger } from '@relay/logging';

export interface ActivitySpool {
  /** keeps a row the broker would not take; resolves false only if Redis refused it too */
  push(row: ActivityRequestV1): Promise<boolean>;
  /**
   * Re-publishes spooled rows, oldest first, every `intervalMs` for as long as the gateway runs,
   * skipping a tick while the broker or Redis is down (it could only fail). Returns the
   * function that stops it, for shutdown.
   */
  drainEvery(intervalMs: number, publish: Publish, brokerUp: () => boolean): () => void;
}

type Publish = (row: ActivityRequestV1) => Promise<void>;

const BATCH = 200;
const LOCK_MS = 15000;

/**
 * Activity rows that could not reach the broker (DELIVERY_QUEUE_UNAVAILABLE above all) are
 * kept in a Redis list and re-published when the broker is back, so an outage loses no
 * row. New rows are LPUSHed; the drainer reads the oldest batch from the tail, publishes it
 * with confirms, then trims exactly that batch. A Redis lock makes one gateway drain at a
 * time, so two gateways never trim each other's unpublished rows.
 */
export function createActivitySpool(redis: Redis, namespace: string, instanceId: string, logger: Logger): ActivitySpool {
  const key = `${namespace}:activity-spool`;
  const lockKey = `${key}:lock`;

  /** One pass over the spool; returns how many rows were re-published. */
  async function drain(publish: Publish): Promise<number> {
    const locked = await redis.set(lockKey, instanceId, 'PX', LOCK_MS, 'NX');
    if (locked !== 'OK') return 0;
    let drained = 0;
    try {
      for (;;) {
        const batch = await redis.lrange(key, -BATCH, -1);
        if (batch.length === 0) break;
        // the tail holds the oldest row; publish oldest first
        await Promise.all(batch.reverse().map((raw) => publish(JSON.parse(raw) as ActivityRequestV1)));
        await redis.ltrim(key, 0, -(batch.length + 1));
        drained += batch.length;
        await redis.pexpire(lockKey, LOCK_MS);
      }
    } finally {
      // release only our own lock
      await redis.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", 1, lockKey, instanceId);
    }
    return drained;
  }

  return {
    async push(row) {
      try {
        await redis.lpush(key, JSON.stringify(row));
        return true;
      } catch (err) {
        logger.error('activity row lost: broker and Redis both unavailable', { event_id: row.event_id, outcome: row.outcome, error: (err as Error).message });
        return false;
      }
    },
    drainEvery(intervalMs, publish, brokerUp) {
      const timer = setInterval(() => {
        if (!brokerUp() || redis.status !== 'ready') return;
        drain(publish)
          .then((n) => n > 0 && logger.info('spooled activity rows re-published', { count: n }))
          .catch((err: Error) => logger.warn('spool drain failed', { error: err.message }));
      }, intervalMs);
      return () => clearInterval(timer);
    },
  };
}
