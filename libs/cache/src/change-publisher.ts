import type { RedisClient } from './redis';
import { cacheChangesChannel, cacheChangesSeqKey, encodeCacheChange } from '@relay/contracts';
import type { CacheChange } from '@relay/contracts';
import type { Logger } from '@relay/logging';

/**
 * Numbers and publishes in one step, so the number a follower reads from the counter never
 * runs ahead of a message still to come from the same change.
 */
const NUMBER_AND_PUBLISH = `
local seq = redis.call('INCR', KEYS[1])
redis.call('PUBLISH', ARGV[1], seq .. ' ' .. ARGV[2])
return seq`;

/** Announcements kept for a retry while Redis cannot be reached; past this the oldest is dropped (the followers' sweep still finds it). */
const MAX_PENDING = 10_000;
const RETRY_EVERY_MS = 1000;

export interface ChangePublisher {
  /** announces one change to every cache; its number, or null when Redis would not take it (then it is retried every second); never throws */
  announce(change: CacheChange): Promise<number | null>;
  /** stops retrying */
  close(): void;
}

/**
 * Tells every gateway and deliverer that a stored setting changed (docs/architecture.md
 * "Caches of settings"). When Redis cannot be reached the change is kept and sent again until
 * it goes through: caches keep entries until told, so a dropped announcement would leave a
 * stale entry until the next sweep.
 */
export function createChangePublisher(redis: RedisClient, namespace: string, logger: Logger): ChangePublisher {
  const key = cacheChangesSeqKey(namespace);
  const channel = cacheChangesChannel(namespace);
  const pending = new Map<string, CacheChange>();
  let timer: NodeJS.Timeout | null = null;

  const send = async (change: CacheChange): Promise<number | null> => {
    try {
      return Number(await redis.eval(NUMBER_AND_PUBLISH, 1, key, channel, encodeCacheChange(change)));
    } catch (err) {
      logger.warn('cache change announcement failed; sent again every second until Redis answers', {
        scope: change.scope,
        id: change.id,
        error: (err as Error).message,
      });
      return null;
    }
  };
  const retry = async (): Promise<void> => {
    for (const [text, change] of [...pending]) {
      if ((await send(change)) === null) return;
      pending.delete(text);
    }
  };
  const keep = (change: CacheChange): void => {
    pending.set(encodeCacheChange(change), change);
    if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value!);
    timer ??= setInterval(
      () =>
        void retry().then(() => {
          if (pending.size === 0 && timer) {
            clearInterval(timer);
            timer = null;
          }
        }),
      RETRY_EVERY_MS,
    ).unref();
  };

  return {
    async announce(change) {
      const seq = await send(change);
      if (seq === null) keep(change);
      return seq;
    },
    close() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
