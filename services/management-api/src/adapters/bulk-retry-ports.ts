import { LRUCache } from '@relay/cache';
import { channelOf } from '@relay/targets';
import type { ActivityLog } from '@relay/activity-log';
import { findTarget } from '@relay/store';
import type { Store } from '@relay/store';
import { PREVIEW_MAX_ROWS, jobMatches, retryRow, zeroCounts } from '../domain/bulk-retry-job';
import type { BulkRetryFilter, HeldReason, JobCounts, RetryTarget, RowRetryPorts } from '../domain/bulk-retry-job';
import type { ResendAllowance } from './resend-allowance';

/**
 * The account's enabled target by id, with whether it is flagged or paused, or null; each kept
 * 5 s, since a job's rows name few targets and it must not read each again for every row
 * (lru-cache, the project's one LRU).
 */
export function targetLookup(
  store: Store,
  now: () => number,
): (targetId: string, accountId: string) => Promise<RetryTarget | null> {
  const cache = new LRUCache<string, { value: (RetryTarget & { account_id: string }) | null; at: number }>({
    max: 10_000,
  });
  return async (targetId, accountId) => {
    const hit = cache.get(targetId);
    if (hit && now() - hit.at < 5000) return hit.value && hit.value.account_id === accountId ? hit.value : null;
    const t = await findTarget(store, targetId);
    const channel = t ? channelOf(t.kind) : null;
    const value =
      t && t.enabled && channel
        ? {
            id: t.id,
            kind: t.kind,
            channel,
            endpoint_id: t.endpoint_id,
            account_id: t.account_id,
            name: t.name,
            held: t.flagged ? ('flagged' as const) : t.breaker_state?.state === 'paused' ? ('paused' as const) : null,
          }
        : null;
    cache.set(targetId, { value, at: now() });
    return value && value.account_id === accountId ? value : null;
  };
}

/** A job walks the Errors group of its window; no other filter of the activity list applies. */
export const ERRORS_GROUP = {
  status: 'errors',
  sourceIp: null,
  errorText: null,
  payload: null,
  responseStatus: null,
} as const;
/** Rows listed per page, by the job and its preview (each page's reads are bounded as the activity API's). */
export const PAGE_ROWS = 50;
/** Rows a preview reads at once. */
const PREVIEW_CONCURRENCY = 4;

/** A flagged or paused target whose failed deliveries a bulk retry would leave out. */
export interface HeldTarget {
  target_id: string;
  name: string;
  held: HeldReason;
  deliveries: number;
}

export interface BulkRetryPreview {
  counts: JobCounts;
  held_targets: HeldTarget[];
  /** false: the window holds more rows than PREVIEW_MAX_ROWS; the counts are of the newest ones */
  complete: boolean;
}

/**
 * What a bulk retry of `filter` would queue now, queuing nothing (`POST /v1/bulk-retries/preview`):
 * the job's own walk (the Errors group of the window, newest first, pages of PAGE_ROWS) and its
 * own row rules (retryRow), with ports that publish nothing and only check the per-event
 * allowance. At most PREVIEW_MAX_ROWS rows.
 */
export async function previewBulkRetry(
  deps: { log: ActivityLog; store: Store; allowance: ResendAllowance; now: () => number },
  accountId: string,
  filter: BulkRetryFilter,
): Promise<BulkRetryPreview> {
  const target = targetLookup(deps.store, deps.now);
  // a row asks for each of its failed deliveries' targets once: one ask of a held target is one delivery left out
  const held = new Map<string, HeldTarget>();
  const ports: RowRetryPorts = {
    row: (id) => deps.log.row(id),
    payload: (id) => deps.log.payload(id),
    async target(id) {
      const t = await target(id, accountId);
      if (t?.held) {
        const known = held.get(t.id) ?? { target_id: t.id, name: t.name, held: t.held, deliveries: 0 };
        held.set(t.id, { ...known, deliveries: known.deliveries + 1 });
      }
      return t;
    },
    async take(eventId, n) {
      return (await deps.allowance.used(accountId, eventId)) + n <= deps.allowance.max;
    },
    giveBack: async () => undefined,
    pace: async () => undefined,
    publish: async () => undefined,
  };
  const counts = zeroCounts();
  let cursor: string | null = null;
  for (;;) {
    const page = await deps.log.list({
      ...ERRORS_GROUP,
      account: accountId,
      endpointId: filter.endpoint_id,
      fromMs: filter.from_ms,
      toMs: filter.to_ms,
      cursor,
      limit: PAGE_ROWS,
      where: (e) => jobMatches(filter, e),
    });
    const rows = page.rows.slice(0, PREVIEW_MAX_ROWS - counts.rows_scanned);
    for (let i = 0; i < rows.length; i += PREVIEW_CONCURRENCY)
      await Promise.all(rows.slice(i, i + PREVIEW_CONCURRENCY).map((e) => retryRow(e, filter, '', ports, counts)));
    // by name: rows are read several at once, so the order targets are first met in is not stable
    const heldTargets = (): HeldTarget[] =>
      [...held.values()].sort((a, b) => a.name.localeCompare(b.name) || a.target_id.localeCompare(b.target_id));
    if (page.next_cursor === null && rows.length === page.rows.length)
      return { counts, held_targets: heldTargets(), complete: true };
    if (counts.rows_scanned >= PREVIEW_MAX_ROWS) return { counts, held_targets: heldTargets(), complete: false };
    cursor = page.next_cursor;
  }
}
