import { quotaKey } from '@relay/contracts';
import type { RedisClient } from '@relay/cache';

/** Reads an account's monthly accepted-event counter (written by the ingest gateway). */
export type UsageCounter = (accountId: string, month: string) => Promise<number>;

export function createUsageCounter(redis: RedisClient, namespace: string): UsageCounter {
  return async (accountId, month) => {
    const raw = await redis.get(quotaKey(namespace, accountId, month));
    const n = raw === null ? 0 : Number(raw);
    return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
  };
}
