import type { ActivityListed } from '@relay/client';

/** Activity rows as the list shows them (spec "Activity record"): the API's listed row. */
export type ActivityRow = ActivityListed;

const ACRONYMS = new Set(['ip', 'http', 'url', 'json', 'xml']);
const STATUS_LABELS: Record<ActivityRow['status'], string> = { completed: 'Completed', pending: 'Pending', errors: 'Delivery failed' };

/**
 * The spec's outcome label with its code: "Completed (ACCEPTED)", "Auth Failed (AUTH_FAILED)".
 * An accepted request is labelled by where its deliveries stand.
 */
export function outcomeLabel(row: Pick<ActivityRow, 'outcome' | 'status'>): string {
  if (row.outcome === 'ACCEPTED') return `${STATUS_LABELS[row.status]} (ACCEPTED)`;
  const words = row.outcome
    .toLowerCase()
    .split('_')
    .map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
  return `${words} (${row.outcome})`;
}

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
