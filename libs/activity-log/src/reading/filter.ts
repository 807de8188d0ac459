import { labelCanMatch, outcomeLabel } from '@relay/contracts';
import { GROUP_SCOPES, accountScope, endpointScope, groupScope, ipScope } from '../storage/internal';
import type { GroupScope, IndexEntry, Scope } from '../storage/internal';
import type { ActivityListQuery } from '../driver';

/** The filter, on a row's index entry (its latest status and error applied). */
export function entryMatches(q: ActivityListQuery, e: IndexEntry): boolean {
  if (q.endpointId !== null && e.endpoint_id !== q.endpointId) return false;
  // the groups are one choice (spec): a test row is in Test and All, never Completed/Pending/Errors
  if (q.status === 'test' ? !e.test : q.status !== 'all' && (e.test || e.status !== q.status)) return false;
  if (q.sourceIp !== null && e.source_ip !== q.sourceIp) return false;
  if (q.errorText !== null) {
    // what the row shows: its outcome label and code, the rejection reason, the latest delivery error
    const needle = q.errorText.toLowerCase();
    const label = outcomeLabel(e.outcome, e.status, e.retry_ms !== null);
    if (![label, e.reason, e.last_error].some((t) => (t ?? '').toLowerCase().includes(needle))) return false;
  }
  // only an accepted request has a payload kept and delivery attempts; aggregated rows are refusals
  if ((q.payload !== null || q.responseStatus !== null) && (e.outcome !== 'ACCEPTED' || e.aggregated)) return false;
  if (q.responseStatus !== null && e.target_count === 0) return false;
  return q.where ? q.where(e) : true;
}

/** Whether a response status answered by an attempt matches the search (`503`, `5xx`). */
export function statusMatches(search: string, code: number | null): boolean {
  if (code === null) return false;
  return search.endsWith('xx') ? Math.floor(code / 100) === Number(search[0]) : code === Number(search);
}

/** Whether the payload's text holds the search, case-insensitive (the body as UTF-8 text). */
export function payloadMatches(search: string, bodyBase64: string): boolean {
  return Buffer.from(bodyBase64, 'base64').toString('utf8').toLowerCase().includes(search.toLowerCase());
}

/**
 * The narrowest pages that hold every row the filter can match (storage/keys.ts): a source IP
 * reads its address's bucket of the account; Errors, Pending and Test their group's own pages;
 * an error-text search the pages of rows that have a text, unless the text is part of an outcome
 * label (which every row has). The filter still checks each entry as it is now, endpoint
 * included, so a wider scope is never wrong, only slower. The writer enters each row in these
 * scopes (scopesOfRow), in the same folder.
 */
export function scopeOf(q: ActivityListQuery): Scope {
  if (q.sourceIp !== null) return ipScope(accountScope(q.account), q.sourceIp);
  const base = q.endpointId ? endpointScope(q.endpointId) : accountScope(q.account);
  // a text only an outcome label holds ("Media Type") can match rows with no reason or error
  const group = isGroup(q.status)
    ? q.status
    : q.errorText !== null && !labelCanMatch(q.errorText.toLowerCase())
      ? 'texts'
      : null;
  return group ? groupScope(base, group) : base;
}

const isGroup = (status: string): status is GroupScope => (GROUP_SCOPES as readonly string[]).includes(status);
