/**
 * Redis keys more than one service reads. The gateway counts accepted events under the
 * quota key and the management API reports it (GET /billing/usage); renaming it is a
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
