import { OUTCOMES } from './outcomes';

/** What a row reads in place of its outcome code until the gateway's record of the request arrives. */
const RECORD_PENDING = 'request not recorded yet';

type RowStatus = 'completed' | 'pending' | 'errors';

const ACRONYMS = new Set(['ip', 'http', 'url', 'json', 'xml']);
const STATUS_LABELS: Record<RowStatus, string> = {
  completed: 'Completed',
  pending: 'Pending',
  errors: 'Delivery failed',
};

/**
 * The label a person sees for a row's outcome, with its code: "Unsupported Media Type
 * (UNSUPPORTED_MEDIA_TYPE)"; an accepted request by where its deliveries stand, "Delivery failed
 * (ACCEPTED)", "Retrying (ACCEPTED)" while a failed delivery waits for its next attempt. The dashboard shows exactly this (its copy, lib/outcome.ts, is checked against
 * it by test/unit/dashboard), and the error-text search matches it: a search
 * finds what the row reads.
 */
export function outcomeLabel(outcome: string | null, status: RowStatus, retrying = false): string {
  // a pending row whose delivery failed and waits for its next attempt reads Retrying:
  // not the same as one never tried yet. Still in the spec's Pending group.
  const delivery = status === 'pending' && retrying ? 'Retrying' : STATUS_LABELS[status];
  if (outcome === 'ACCEPTED') return `${delivery} (ACCEPTED)`;
  // only accepted requests are delivered: a row with deliveries and no outcome yet is one whose
  // request record is still on its way to the log
  if (outcome === null) return `${delivery} (${RECORD_PENDING})`;
  const words = outcome
    .toLowerCase()
    .split('_')
    .map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
  return `${words} (${outcome})`;
}

/** Every label a row can show, lower case: whether a search text can match a row by its label alone. */
const ALL_LABELS: string[] = [...OUTCOMES, null].flatMap((o) =>
  (['completed', 'pending', 'errors'] as const).flatMap((s) =>
    [outcomeLabel(o, s), outcomeLabel(o, s, true)].map((l) => l.toLowerCase()),
  ),
);

/** Whether some row could match `needle` (lower case) by its outcome label, whatever its texts. */
export const labelCanMatch = (needle: string): boolean => ALL_LABELS.some((l) => l.includes(needle));
