/**
 * Redis keys and channels more than one service uses. The gateway counts accepted events under
 * the quota key and the management API reports it (GET /billing/usage); the change
 * announcements every cache follows are in cache-changes.ts. Renaming either is a
 * migration, like renaming a queue.
 */

/** The UTC calendar month the monthly accepted-event quota counts: `YYYY-MM`. */
export function quotaMonth(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/** `${namespace}:quota:${account_id}:${YYYY-MM}` — accepted events of the account that month. */
export function quotaKey(namespace: string, accountId: string, month: string): string {
  return `${namespace}:quota:${accountId}:${month}`;
}

/**
 * `${namespace}:usage-daily:{<quota key>}` — a hash of the account's accepted events that month
 * per endpoint and day, field `${endpoint_id}|${DD}`. The gateway's admit script increments it with
 * the quota counter (one round trip), so it is in the quota key's hash slot (the whole quota key
 * is its hash tag) and expires with it. At most endpoints × 31 fields.
 */
export function usageDailyKey(namespace: string, accountId: string, month: string): string {
  return `${namespace}:usage-daily:{${quotaKey(namespace, accountId, month)}}`;
}

/** The field of `usageDailyKey` for an endpoint on a UTC day (`DD` of the ISO date). */
export function usageDailyField(endpointId: string, now: Date): string {
  return `${endpointId}|${now.toISOString().slice(8, 10)}`;
}

/**
 * `${namespace}:quarantine:${account_id}:${YYYYMMDDHH}` — requests of the account kept in
 * quarantine in that UTC hour (docs/ingest.md "Quarantine"); expires with the hour.
 */
export function quarantineKey(namespace: string, accountId: string, now: Date): string {
  return `${namespace}:quarantine:${accountId}:${now.toISOString().slice(0, 13).replace(/[-T]/g, '')}`;
}

/**
 * `${namespace}:idem:${endpoint_id}:${digest}` — the answer to the first request that carried an
 * Idempotency-Key (docs/ingest.md "Idempotency-Key"). The key's value is hashed: any length of
 * sender text costs the same few bytes.
 */
export function idempotencyKey(namespace: string, endpointId: string, keyDigest: string): string {
  return `${namespace}:idem:${endpointId}:${keyDigest}`;
}

/**
 * `${namespace}:ordering:{${target_id}}:held` — a hash of the target's held ordering keys
 * (docs/ordering.md "Held keys"), field = the key, value = a HeldOrderKey as JSON. Written by the
 * deliverer sequencing the key when its head starts to wait and removed when the head ends;
 * expires when no deliverer renews it (a deliverer killed leaves nothing behind for long).
 */
export function orderingHeldKey(namespace: string, targetId: string): string {
  return `${namespace}:ordering:{${targetId}}:held`;
}

/** One held key as the dashboard shows it: the event at its head and why that waits. */
export interface HeldOrderKey {
  key: string;
  /** when the head first waited (ISO 8601) */
  since: string;
  event_id: string;
  /** the head's next attempt */
  attempt: number;
  /** `retrying` (its attempt failed) or the target gate's hold reason */
  reason: string;
  /** waited longer than ORDERING_STUCK_AFTER_MS */
  stuck: boolean;
}

/**
 * `${namespace}:drift:{${endpoint_id}}` — the payload shapes an endpoint's events were seen with
 * (docs/contracts.md "Drift"): a hash of `k:<event type>:<shape id>` (a shape seen) and
 * `b:<event type>` (the event type's first shape, the baseline, as JSON), at most
 * MAX_DRIFT_FIELDS fields; written by the gateway, expires DRIFT_TTL_MS after its last new shape.
 */
export function driftKey(namespace: string, endpointId: string): string {
  return `${namespace}:drift:{${endpointId}}`;
}
