/**
 * Key layout of the activity index (docs/architecture.md "Activity log storage").
 *
 * The local store (FerretDB 1.24) serves only `_id` equality by key; every other filter, every
 * sort and every `$in` scans the collection. So the activity log is read and written by `_id`
 * alone: rows are keyed by event id, and an index of small documents keyed by scope and time
 * lets the reader walk a scope newest-first without a query that scans.
 *
 *   d|<scope>|<YYYY-MM-DD>            { hours: number[] }      hours of that day with rows
 *   h|<scope>|<YYYY-MM-DDTHH>         { minutes: number[] }    minutes of that hour with rows
 *   m|<scope>|<YYYY-MM-DDTHH:MM>      { pages, last_len, changes, last_change_len }
 *   p|<scope>|<minute>|<n>            { e: EntryTuple[] }      index entries, in write order
 *   c|<scope>|<minute>|<n>            { e: ChangeTuple[] }     later status changes of those rows
 *   s|<YYYY-MM-DDTHH>                 { scopes: string[] }     scopes written that hour (retention)
 *   r|cursor                          { hour }                 the oldest hour retention has not swept
 */

/** A scope is what the activity log can be listed by without a scan: an account or an endpoint. */
export type Scope = string;

export const accountScope = (accountId: string): Scope => `a:${accountId}`;
export const endpointScope = (endpointId: string): Scope => `e:${endpointId}`;
export const isAccountScope = (scope: Scope): boolean => scope.startsWith('a:');

const iso = (ms: number): string => new Date(ms).toISOString();
/** `YYYY-MM-DDTHH:MM` (UTC) */
export const minuteOf = (ms: number): string => iso(ms).slice(0, 16);
/** `YYYY-MM-DDTHH` (UTC) */
export const hourOf = (ms: number): string => iso(ms).slice(0, 13);
/** `YYYY-MM-DD` (UTC) */
export const dayOf = (ms: number): string => iso(ms).slice(0, 10);

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Start of a `YYYY-MM-DD`, `YYYY-MM-DDTHH` or `YYYY-MM-DDTHH:MM` key, in ms. */
export function startOf(key: string): number {
  if (key.length === 10) return Date.parse(`${key}T00:00:00.000Z`);
  if (key.length === 13) return Date.parse(`${key}:00:00.000Z`);
  return Date.parse(`${key}:00.000Z`);
}

export const ids = {
  day: (scope: Scope, day: string) => `d|${scope}|${day}`,
  hour: (scope: Scope, hour: string) => `h|${scope}|${hour}`,
  minute: (scope: Scope, minute: string) => `m|${scope}|${minute}`,
  page: (scope: Scope, minute: string, n: number) => `p|${scope}|${minute}|${n}`,
  changes: (scope: Scope, minute: string, n: number) => `c|${scope}|${minute}|${n}`,
  sweep: (hour: string) => `s|${hour}`,
  retentionCursor: 'r|cursor',
};
