import { quotaKey as sharedQuotaKey, quotaMonth } from '@relay/contracts';

/**
 * Redis keys of the limits. The names are a contract: the management API reads the quota
 * counter to report usage (GET /billing/usage), so renaming one is a migration.
 *
 * - `${ns}:quota:${account_id}:${YYYY-MM}` — accepted events of the account in that UTC
 *   calendar month; expires 40 days after its first event, so a month's count outlives the
 *   month long enough to be reported.
 * - `${ns}:rate:${endpoint_id}:{<quota key>}` — the endpoint's rate bucket (domain/limits/gcra.ts),
 *   a hash of `level` and `at`; expires 61 s after its last admitted request, when it is empty
 *   anyway. The admit script touches the bucket and the quota counter together, so on a Redis
 *   Cluster both must be in one hash slot: the bucket's hash tag is the whole quota key (which has
 *   no braces, so its slot is that of its full name). The quota key keeps its name — the month's
 *   count survives an upgrade — and only the bucket, which holds at most a minute, was renamed
 *   (docs/operations.md "Upgrading"): it starts empty once per month and once at the upgrade.
 *   (Before that the bucket was `${ns}:rate:${endpoint_id}`, and earlier per-minute
 *   counters `${ns}:rate:${endpoint_id}:${minute}`; both expire by themselves within 180 s.)
 */
export const QUOTA_TTL_SECONDS = 40 * 24 * 3600;

export function quotaKey(namespace: string, accountId: string, now: Date): string {
  return sharedQuotaKey(namespace, accountId, quotaMonth(now));
}

/** The rate bucket of an endpoint, in the hash slot of `quota` (the account's quotaKey this month). */
export function rateKey(namespace: string, endpointId: string, quota: string): string {
  return `${namespace}:rate:${endpointId}:{${quota}}`;
}

/**
 * `${ns}:handshakes:${endpoint_id}:${minute}` — MAC handshake answers of the endpoint in that UTC
 * minute (minutes since the epoch); expires when the minute is over.
 */
export function handshakeKey(namespace: string, endpointId: string, minute: number): string {
  return `${namespace}:handshakes:${endpointId}:${minute}`;
}
