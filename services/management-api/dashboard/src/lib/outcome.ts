import type { ActivityListed } from '@relay/client';
import { outcomeLabel as labelOf } from '../../../../../libs/contracts/src/outcome-labels';

/**
 * The spec's outcome label with its code: "Completed (ACCEPTED)", "Auth Failed (AUTH_FAILED)"; an
 * accepted request by where its deliveries stand. The one table the API's error-text search
 * matches against (libs/contracts outcome-labels.ts), so a search finds what the row reads.
 */
export function outcomeLabel(row: Pick<ActivityListed, 'outcome' | 'status' | 'next_attempt_at'>): string {
  return labelOf(row.outcome, row.status, row.next_attempt_at !== null);
}

/** An alert's delivery (a row Relay sent, not a request it received), by how its delivery stands. */
export function alertLabel(row: Pick<ActivityListed, 'status' | 'next_attempt_at'>): string {
  if (isRetrying(row)) return 'Alert retrying';
  return { completed: 'Alert delivered', pending: 'Alert being sent', errors: 'Alert not delivered' }[row.status];
}

/** A pending row whose failed delivery waits for its next attempt (the list reads it "Retrying"). */
export const isRetrying = (row: Pick<ActivityListed, 'status' | 'next_attempt_at'>): boolean =>
  row.status === 'pending' && row.next_attempt_at !== null;

/** Merges a fresh first page into the rows on screen: new rows on top, known rows updated in place. */
export function mergeNewest<T extends { id: string }>(shown: T[], fresh: T[]): { rows: T[]; added: number } {
  const byId = new Map(fresh.map((r) => [r.id, r]));
  const known = new Set(shown.map((r) => r.id));
  const added = fresh.filter((r) => !known.has(r.id));
  const updated = shown.map((r) => byId.get(r.id) ?? r);
  return { rows: [...added, ...updated], added: added.length };
}

/** Appends a further page, dropping rows already shown (a redelivered row can repeat across pages). */
export function appendPage<T extends { id: string }>(shown: T[], page: T[]): T[] {
  const known = new Set(shown.map((r) => r.id));
  return [...shown, ...page.filter((r) => !known.has(r.id))];
}
