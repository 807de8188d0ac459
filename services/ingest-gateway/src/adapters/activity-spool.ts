import type { ActivityRequestV1 } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { DeliveryQueueUnavailableError } from '@relay/broker';
import type { RedisClient } from '@relay/cache';

export interface ActivitySpool {
  /** keeps a row the broker would not take; resolves false only if Redis refused it too */
  push(row: ActivityRequestV1): Promise<boolean>;
  /**
   * Re-publishes spooled rows, oldest first, every `intervalMs` for as long as the gateway runs,
   * skipping a tick while the broker or Redis is down (it could only fail). `publish` rejects
   * with DeliveryQueueUnavailableError while the broker cannot take a row; any other rejection
   * marks the row as one that can never be published. Returns the function that stops it.
   */
  drainEvery(intervalMs: number, publish: Publish, brokerUp: () => boolean): () => void;
  /** rows waiting in the spool (LLEN, O(1)): the gateway's spool length metric */
  length(): Promise<number>;
}

type Publish = (row: ActivityRequestV1) => Promise<void>;

const BATCH = 200;
const LOCK_MS = 15000;
/** Rows that can never be published are kept this many at most, newest first, for an operator to read. */
export const QUARANTINE_MAX = 1000;

/**
 * LTRIM of the batch a pass read (ARGV, in LRANGE order), only if the list's tail is still that
 * batch; 1 if trimmed, 0 if not. One key, so it runs as one command on a Redis Cluster too.
 */
const TRIM_IF_TAIL = `
local n = #ARGV
local tail = redis.call('lrange', KEYS[1], -n, -1)
if #tail ~= n then return 0 end
for i = 1, n do
  if tail[i] ~= ARGV[i] then return 0 end
end
redis.call('ltrim', KEYS[1], 0, -(n + 1))
return 1`;

/** A spooled entry that no retry can publish: not JSON, or refused by the message contract. */
class PoisonRowError extends Error {}

/**
 * Activity rows that could not reach the broker (DELIVERY_QUEUE_UNAVAILABLE above all) are
 * kept in a Redis list and re-published when the broker is back, so an outage loses no
 * row. New rows are LPUSHed; the drainer reads the oldest batch from the tail, publishes each
 * row with confirms, then trims exactly that batch. A Redis lock makes one gateway drain at a
 * time; and because a lock can expire under a pass slower than LOCK_MS (a broker that confirms
 * slowly), the trim itself is conditional (TRIM_IF_TAIL): it removes the batch only if the tail
 * still holds exactly the rows this pass read. A second drainer that published and trimmed them
 * meanwhile leaves a different tail, and rows pushed since are never trimmed unpublished.
 *
 * Rows are handled one by one: a row that can never be published (not JSON, or refused by the
 * contract — anything but the broker being unavailable) is moved to `<key>:quarantine` (at most
 * QUARANTINE_MAX, newest kept) and logged, so it cannot hold back the rows behind it. If the
 * broker fails a row, the pass stops and keeps the whole batch: rows of it already published
 * are published again next time, which the activity writer absorbs (rows are keyed by event id).
 */
export function createActivitySpool(
  redis: RedisClient,
  namespace: string,
  instanceId: string,
  logger: Logger,
): ActivitySpool {
  const key = `${namespace}:activity-spool`;
  const lockKey = `${key}:lock`;
  const quarantineKey = `${key}:quarantine`;

  const publishOne = async (raw: string, publish: Publish): Promise<void> => {
    let row: ActivityRequestV1;
    try {
      row = JSON.parse(raw) as ActivityRequestV1;
    } catch {
      throw new PoisonRowError('spooled entry is not JSON');
    }
    try {
      await publish(row);
    } catch (err) {
      if (err instanceof DeliveryQueueUnavailableError) throw err;
      throw new PoisonRowError(err instanceof Error ? err.message : String(err));
    }
  };

  const quarantine = async (rows: { raw: string; error: string }[]): Promise<void> => {
    for (const { raw, error } of rows) {
      logger.error('spooled activity row cannot be published; quarantined', {
        quarantine_key: quarantineKey,
        event_id: eventIdOf(raw),
        error,
      });
    }
    await redis
      .multi()
      .lpush(quarantineKey, ...rows.map((r) => r.raw))
      .ltrim(quarantineKey, 0, QUARANTINE_MAX - 1)
      .exec();
  };

  /** One pass over the spool, until it is empty or `stopped()`; returns how many rows were re-published. */
  async function drain(publish: Publish, stopped: () => boolean): Promise<number> {
    const locked = await redis.set(lockKey, instanceId, 'PX', LOCK_MS, 'NX');
    if (locked !== 'OK') return 0;
    let drained = 0;
    try {
      while (!stopped()) {
        const batch = await redis.lrange(key, -BATCH, -1);
        if (batch.length === 0) break;
        // the tail holds the oldest row; publish oldest first
        const rows = [...batch].reverse();
        const results = await Promise.allSettled(rows.map((raw) => publishOne(raw, publish)));
        if (results.some((r) => r.status === 'rejected' && !(r.reason instanceof PoisonRowError))) break;
        const poison = rows.flatMap((raw, i) => {
          const r = results[i]!;
          return r.status === 'rejected' ? [{ raw, error: (r.reason as Error).message }] : [];
        });
        if (poison.length > 0) await quarantine(poison);
        // another drainer took these rows over (our lock expired mid-pass): it trims, we stop
        if ((await redis.eval(TRIM_IF_TAIL, 1, key, ...batch)) !== 1) break;
        drained += batch.length - poison.length;
        await redis.pexpire(lockKey, LOCK_MS);
      }
    } finally {
      // release only our own lock
      await redis.eval(
        "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0",
        1,
        lockKey,
        instanceId,
      );
    }
    return drained;
  }

  return {
    async push(row) {
      try {
        await redis.lpush(key, JSON.stringify(row));
        return true;
      } catch (err) {
        logger.error('activity row lost: broker and Redis both unavailable', {
          event_id: row.event_id,
          outcome: row.outcome,
          error: (err as Error).message,
        });
        return false;
      }
    },
    drainEvery(intervalMs, publish, brokerUp) {
      let stopped = false;
      const timer = setInterval(() => {
        if (!brokerUp() || redis.status !== 'ready') return;
        drain(publish, () => stopped)
          .then((n) => n > 0 && logger.info('spooled activity rows re-published', { count: n }))
          .catch((err: Error) => logger.warn('spool drain failed', { error: err.message }));
      }, intervalMs);
      // a pass in flight ends after its current batch: on shutdown the broker closes next
      return () => {
        stopped = true;
        clearInterval(timer);
      };
    },
    length: () => redis.llen(key),
  };
}

/** The event id of a spooled entry, for the log; null when it has none. */
function eventIdOf(raw: string): string | null {
  try {
    const id = (JSON.parse(raw) as { event_id?: unknown }).event_id;
    return typeof id === 'string' ? id.slice(0, 128) : null;
  } catch {
    return null;
  }
}
