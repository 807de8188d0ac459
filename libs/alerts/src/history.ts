import type { AccountEventKind } from '@relay/contracts';
import type { RedisClient } from '@relay/cache';

/** One alert as the account's alert history shows it (GET /v1/alert-rules/history). */
export interface AlertHistoryEntry {
  id: string;
  rule_id: string;
  rule_name: string;
  kind: AccountEventKind;
  test: boolean;
  at: string;
  summary: string;
  link: string;
  endpoint_id: string | null;
  target_id: string | null;
  /** one per target the alert went to: the activity row that shows its delivery attempts */
  deliveries: Array<{ target_id: string; endpoint_id: string | null; event_id: string | null; error: string | null }>;
}

/** Alerts kept per account, newest first (docs/alerts.md "Alert history"). */
export const HISTORY_LENGTH = 100;
const HISTORY_TTL_S = 30 * 86_400;

const historyKey = (namespace: string, accountId: string): string => `${namespace}:alert-history:${accountId}`;

/** A capped list per account: one LPUSH and LTRIM per alert, never a scan. */
export async function recordAlert(
  redis: RedisClient,
  namespace: string,
  accountId: string,
  entry: AlertHistoryEntry,
): Promise<void> {
  const key = historyKey(namespace, accountId);
  await redis.lpush(key, JSON.stringify(entry));
  await redis.ltrim(key, 0, HISTORY_LENGTH - 1);
  await redis.expire(key, HISTORY_TTL_S);
}

export async function readHistory(
  redis: RedisClient,
  namespace: string,
  accountId: string,
  limit = HISTORY_LENGTH,
): Promise<AlertHistoryEntry[]> {
  const items = await redis.lrange(historyKey(namespace, accountId), 0, Math.min(limit, HISTORY_LENGTH) - 1);
  return items.map((s) => JSON.parse(s) as AlertHistoryEntry);
}
