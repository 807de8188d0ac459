import type { Logger } from '@relay/logging';
import type { RedisClient } from '@relay/cache';

export type LimitVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

/** How many of an action an account may ask for per window. */
export interface ActionLimiter {
  take(accountId: string, action: string, limit: number, windowMs: number): Promise<LimitVerdict>;
}

/**
 * Fixed-window counters in Redis (`<ns>:mgmt-limit:<action>:<account>:<window>`), shared by every
 * management-api instance: test requests and resends count against no quota of the account, so
 * they have their own ceiling. While Redis cannot be asked, actions are allowed (logged): these
 * ceilings protect receivers and the broker from a runaway script, not the account's bill.
 */
export function createActionLimiter(
  redis: RedisClient,
  namespace: string,
  logger: Logger,
  now: () => number = Date.now,
): ActionLimiter {
  return {
    async take(accountId, action, limit, windowMs) {
      const t = now();
      const window = Math.floor(t / windowMs);
      const key = `${namespace}:mgmt-limit:${action}:${accountId}:${window}`;
      try {
        const replies = await redis
          .multi()
          .incr(key)
          .pexpire(key, windowMs * 2)
          .exec();
        const count = Number(replies?.[0]?.[1] ?? 0);
        if (count <= limit) return { ok: true };
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * windowMs - t) / 1000)) };
      } catch (err) {
        logger.warn('management action limit not checked: Redis unavailable', {
          action,
          error: (err as Error).message,
        });
        return { ok: true };
      }
    },
  };
}
