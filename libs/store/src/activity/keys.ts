/**
 * Layout of the activity log (docs/architecture.md "Activity log storage").
 *
 * Measured on FerretDB 1.24 (the local store): every query scans its collection — even `_id`
 * equality (its SQLite `_id` index is on `sjson->"_id"` but the query filters on
 * `sjson->'$._id'`; on PostgreSQL `@>` cannot use the btree) — and any filter but `_id` also
 * decodes every document in Go. Only inserts are index-backed. So the log is split into hourly
 * collections, read and written by `_id` alone: the cost of any access is bounded by one hour
 * of traffic, never by how much is stored, and retention drops whole hours.
 *
 *   activity_rows_<YYYYMMDDHH>   rows received that hour; `_id` = event id (which carries its time)
 *   activity_ix_<YYYYMMDDHH>     index pages of those rows: `<scope>|<n>` (entries), `<scope>|c<n>`
 *                                (later status changes), n = 0, 1, 2 … one page per flush
 *   activity_dir_<YYYYMMDD>      `<scope>` → { hours } with pages that day
 */

/** A scope is what the log can be listed by without reading other rows: an account or an endpoint. */
export type Scope = string;

export const accountScope = (accountId: string): Scope => `a:${accountId}`;
export const endpointScope = (endpointId: string): Scope => `e:${endpointId}`;

/**
 * Sparse groups of rows, each also kept as a scope of its own beside the account's and the
 * endpoint's (`a:<account>#errors`): a filter on one reads pages of that group alone instead of
 * walking every row of the window for the few that match. `errors`, `pending` and `test` are the
 * list's status groups (Completed, most rows, is served by the plain scope); `texts` holds the
 * rows with a rejection reason or a delivery error, which is all the error-text search can match.
 */
export const GROUP_SCOPES = ['errors', 'pending', 'test', 'texts'] as const;
export type GroupScope = (typeof GROUP_SCOPES)[number];
export const groupScope = (scope: Scope, group: GroupScope): Scope => `${scope}#${group}`;

interface Listed {
  account_id: string;
  endpoint_id: string;
  status: string;
  test: boolean;
  reason?: string | null;
  last_error?: string | null;
}

function inGroup(row: Listed, group: GroupScope): boolean {
  if (group === 'test') return row.test;
  if (group === 'texts') return (row.reason ?? row.last_error ?? null) !== null;
  return row.status === group;
}

/** The scopes a row is listed under: its account and endpoint, and each of their groups the row is in. */
export function scopesOfRow(row: Listed): Scope[] {
  const groups = GROUP_SCOPES.filter((g) => inGroup(row, g));
  return [accountScope(row.account_id), endpointScope(row.endpoint_id)].flatMap((s) => [s, ...groups.map((g) => groupScope(s, g))]);
}

const iso = (ms: number): string => new Date(ms).toISOString();
/** `YYYY-MM-DDTHH` (UTC): the partition of a time */
export const hourOf = (ms: number): string => iso(ms).slice(0, 13);
/** `YYYY-MM-DD` (UTC) */
export const dayOf = (ms: number): string => iso(ms).slice(0, 10);

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Start of a `YYYY-MM-DD` or `YYYY-MM-DDTHH` key, in ms. */
export function startOf(key: string): number {
  return Date.parse(key.length === 10 ? `${key}T00:00:00.000Z` : `${key}:00:00.000Z`);
}

const digits = (key: string): string => key.replace(/[-T]/g, '');

export const collections = {
  rows: (hour: string) => `activity_rows_${digits(hour)}`,
  index: (hour: string) => `activity_ix_${digits(hour)}`,
  dir: (day: string) => `activity_dir_${digits(day)}`,
  /** the hour or day a collection of the log holds, or null for any other collection */
  keyOf(name: string): { kind: 'rows' | 'index' | 'dir'; key: string } | null {
    const m = /^activity_(rows|ix|dir)_(\d{4})(\d{2})(\d{2})(\d{2})?$/.exec(name);
    if (!m) return null;
    const day = `${m[2]}-${m[3]}-${m[4]}`;
    if (m[1] === 'dir') return m[5] === undefined ? { kind: 'dir', key: day } : null;
    return m[5] === undefined ? null : { kind: m[1] === 'rows' ? 'rows' : 'index', key: `${day}T${m[5]}` };
  },
};

export const pageId = (scope: Scope, n: number): string => `${scope}|${n}`;
export const changePageId = (scope: Scope, n: number): string => `${scope}|c${n}`;
