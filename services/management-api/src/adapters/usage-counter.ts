import { quotaKey, usageDailyKey } from '@relay/contracts';
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

/** One cell of the month's per-endpoint-and-day counts: the UTC day of the month (1–31). */
export interface DailyCount {
  endpoint_id: string;
  day: number;
  count: number;
}

/** Reads the month's accepted events per endpoint and day (the gateway's usage hash: one HGETALL). */
export type DailyUsageReader = (accountId: string, month: string) => Promise<DailyCount[]>;

export function createDailyUsageReader(redis: RedisClient, namespace: string): DailyUsageReader {
  return async (accountId, month) => {
    const hash = await redis.hgetall(usageDailyKey(namespace, accountId, month));
    const out: DailyCount[] = [];
    for (const [field, raw] of Object.entries(hash)) {
      const bar = field.lastIndexOf('|');
      const day = Number(field.slice(bar + 1));
      const count = Math.floor(Number(raw));
      if (bar > 0 && day >= 1 && day <= 31 && count > 0) out.push({ endpoint_id: field.slice(0, bar), day, count });
    }
    return out;
  };
}
