import { quotaKey as sharedQuotaKey, quotaMonth } from '@relay/contracts';
import { RATE_WINDOW_MS } from '../../domain/limits/sliding-window';

/**
 * Redis keys of the limits. The names are a contract: the management API reads the quota
 * counter to report usage (GET /billing/usage), so renaming one is a migration.
 *
 * - `${ns}:quota:${account_id}:${YYYY-MM}` — accepted events of the account in that UTC
 *   calendar month; expires 40 days after its first event, so a month's count outlives the
 *   month long enough to be reported.
 * - `${ns}:rate:${endpoint_id}:${minute}` — requests admitted in that minute (minutes since
 *   the epoch); read during its minute and the next, then left to expire.
 */
export const QUOTA_TTL_SECONDS = 40 * 24 * 3600;
export const RATE_TTL_SECONDS = (3 * RATE_WINDOW_MS) / 1000;

export function quotaKey(namespace: string, accountId: string, now: Date): string {
  return sharedQuotaKey(namespace, accountId, quotaMonth(now));
}

export function rateKey(namespace: string, endpointId: string, minute: number): string {
  return `${namespace}:rate:${endpointId}:${minute}`;
}
