/**
 * Layout of the activity log (docs/architecture.md "Activity log storage").
 *
 * Measured on FerretDB 1.24 (the local store): every query scans its collection — even `_id`
 * equality (its SQLite `_id` index is on `sjson->"_id"` but the query filters on
 * `sjson->'$._id'`; on PostgreSQL `@>` cannot use the btree, until scripts/ferretdb-postgres.sql
 * adds a GIN index that can) — and any filter but `_id` also decodes every document in Go. So
 * the log is split into hourly collections, read and written by `_id` alone: the cost of any
 * access is bounded by one hour of traffic, never by how much is stored (on PostgreSQL as
 * provisioned, not even by that), and retention drops whole hours.
 *
 *   activity_rows_<YYYYMMDDHH>   rows received that hour; `_id` = event id (which carries its time)
 *   activity_ix_<YYYYMMDDHH>     index pages of those rows, every scope's: `<scope>|<n>` (entries),
 *                                `<scope>|c<n>` (later status changes), n = 0, 1, 2 … one page per
 *                                flush (a sparse scope's held across flushes)
 *   activity_dir_<YYYYMMDD>      `<scope>` → { hours } with pages that day, and { page_count,
 *                                change_count } by hour, once the writer left the hour (exact)
 *   activity_payloads_<YYYYMMDDHH>  `<event_id>~p`: the accepted payloads of that hour's rows (resends)
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

/**
 * Source addresses, hashed into a fixed number of buckets, each a scope of the account
 * (`a:<account>#ip2f`): a source-IP filter reads the pages of its address's bucket — about 1/64
 * of the account's rows — instead of every row of its window. A bucket, not a scope per
 * address: a flush writes one page per scope it touches, so requests from many addresses cost
 * at most 64 more pages a flush, never one per address. Aggregated rows carry no address and
 * are in no bucket.
 */
export const IP_BUCKETS = 64;
export function ipScope(scope: Scope, sourceIp: string): Scope {
  // FNV-1a: stable across processes and versions, which a bucket written today and read next month needs
  let h = 0x811c9dc5;
  for (let i = 0; i < sourceIp.length; i++) h = Math.imul(h ^ sourceIp.charCodeAt(i), 0x01000193);
  return `${scope}#ip${((h >>> 0) % IP_BUCKETS).toString(16).padStart(2, '0')}`;
}

interface Listed {
  account_id: string;
  endpoint_id: string;
  status: string;
  test: boolean;
  source_ip?: string | null;
  reason?: string | null;
  last_error?: string | null;
}

/**
 * A test request's row (POST /v1/endpoints/:id/test) is in the Test group and no status group:
 * the spec's groups All / Completed / Pending / Errors / Test are one choice, so All lists it
 * and Completed, Pending and Errors are the senders' traffic alone (docs/management-api.md).
 */
function inGroup(row: Listed, group: GroupScope): boolean {
  if (group === 'test') return row.test;
  if (row.test && group !== 'texts') return false;
  if (group === 'texts') return (row.reason ?? row.last_error ?? null) !== null;
  return row.status === group;
}

/**
 * The scopes a row is listed under: its account and endpoint, each of their groups the row is
 * in, and its source address's bucket of the account. A row never changes bucket (its address
 * is fixed), so only group scopes are ever entered or left.
 */
export function scopesOfRow(row: Listed): Scope[] {
  const groups = GROUP_SCOPES.filter((g) => inGroup(row, g));
  const scopes = [accountScope(row.account_id), endpointScope(row.endpoint_id)].flatMap((s) => [
    s,
    ...groups.map((g) => groupScope(s, g)),
  ]);
  if (row.source_ip) scopes.push(ipScope(accountScope(row.account_id), row.source_ip));
  return scopes;
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

/**
 * Account scopes (`a:<account>`, no group): their pages are full at any traffic, so the index
 * writer never holds them (index-writer.ts).
 */
export const isAccountScope = (scope: Scope): boolean => scope.startsWith('a:') && !scope.includes('#');

export const collections = {
  rows: (hour: string) => `activity_rows_${digits(hour)}`,
  /**
   * every index page of the hour, whatever its scope: one collection, so a flush makes one
   * insert an hour and the database holds three collections an hour (docs/architecture.md)
   */
  index: (hour: string) => `activity_ix_${digits(hour)}`,
  dir: (day: string) => `activity_dir_${digits(day)}`,
  /**
   * accepted payloads of the hour's rows (resends): a partition of their own, so a row's `_id`
   * read — which scans its hour on FerretDB — never reads payload bytes
   */
  payloads: (hour: string) => `activity_payloads_${digits(hour)}`,
  /**
   * the hour or day a collection of the log holds, or null for any other collection; also the
   * index collections of earlier layouts (`activity_ixe_…`, `_ixg_`, `_ixi_`, `_ixi0_` … `_ixi7_`),
   * so that retention drops them
   */
  keyOf(name: string): { kind: 'rows' | 'index' | 'dir' | 'payloads'; key: string } | null {
    const m = /^activity_(rows|ix(?:[eg]|i[0-7]?)?|dir|payloads)_(\d{4})(\d{2})(\d{2})(\d{2})?$/.exec(name);
    if (!m) return null;
    const day = `${m[2]}-${m[3]}-${m[4]}`;
    if (m[1] === 'dir') return m[5] === undefined ? { kind: 'dir', key: day } : null;
    const kind = m[1]!.startsWith('ix') ? 'index' : (m[1] as 'rows' | 'payloads');
    return m[5] === undefined ? null : { kind, key: `${day}T${m[5]}` };
  },
};

export const pageId = (scope: Scope, n: number): string => `${scope}|${n}`;
export const changePageId = (scope: Scope, n: number): string => `${scope}|c${n}`;
