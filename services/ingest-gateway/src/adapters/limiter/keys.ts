import { quotaKey as sharedQuotaKey, quotaMonth } from '@relay/contracts';

/**
 * Redis keys of the limits. The names are a contract: the management API reads the quota
 * counter to report usage (GET /billing/usage), so renaming one is a migration.
 *
 * - `${ns}:quota:${account_id}:${YYYY-MM}` — accepted events of the account in that UTC
 *   calendar month; expires 40 days after its first event, so a month's count outlives the
 *   month long enough to be reported.
 * - `${ns}:rate:${endpoint_id}` — the endpoint's rate bucket (domain/limits/gcra.ts), a hash of
 *   `level` and `at`; expires 61 s after its last admitted request, when it is empty anyway.
 *   (Until issue 9 the rate limit used per-minute counters `${ns}:rate:${endpoint_id}:${minute}`;
 *   those are no longer read and expire by themselves within 180 s.)
 */
export const QUOTA_TTL_SECONDS = 40 * 24 * 3600;

export function quotaKey(namespace: string, accountId: string, now: Date): string {
  return sharedQuotaKey(namespace, accountId, quotaMonth(now));
}

export function rateKey(namespace: string, endpointId: string): string {
  return `${namespace}:rate:${endpointId}`;
}
