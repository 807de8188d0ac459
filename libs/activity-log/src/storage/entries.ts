import type { StatusGroup } from '@relay/store';
import type { ListedRow } from '../driver';

/**
 * A row as the list shows it, kept in its index page so that listing reads pages only, never
 * rows. `placed_ms` (stored, never listed): when the writer wrote the entry, so that a reader can
 * tell an entry from one written for the same row later (`IndexChange.replaced_ms`).
 */
export type IndexEntry = ListedRow & { placed_ms?: number };

/**
 * A later change of a row's status or latest error. `replaced_ms`: the row's entry was written
 * again then (a redelivered message the writer had not seen, a request after its attempts), and
 * its entries written before it are not listed, on any page.
 */
export interface IndexChange {
  event_id: string;
  status: StatusGroup;
  last_error: string | null;
  retry_ms: number | null;
  replaced_ms?: number;
}

type StatusCode = 'c' | 'p' | 'e';
const TO_CODE: Record<StatusGroup, StatusCode> = { completed: 'c', pending: 'p', errors: 'e' };
const FROM_CODE: Record<StatusCode, StatusGroup> = { c: 'completed', p: 'pending', e: 'errors' };
const FLAG_TEST = 1;
const FLAG_AGGREGATED = 2;
// pages written before alert rows were marked have no such bit: read as a request's row
const FLAG_ALERT = 4;
/** Index entries keep this much of a reason or error; the row keeps it whole. */
export const ENTRY_TEXT_MAX = 300;
const clip = (text: string | null): string | null => (text === null ? null : text.slice(0, ENTRY_TEXT_MAX));

// the next attempt's time came last (2026-11-26): pages written before have no such element, read as
// null; then when the entry was written, after its request was received (pages written before
// 2026-11-30 have none: read as placed before any entry written again)
type EntryTuple = [
  string,
  number,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  StatusCode,
  string | null,
  number,
  number,
  (number | null)?,
  number?,
];
type ChangeTuple = [string, StatusCode, string | null, (number | null)?, number?];

/**
 * A page is stored as one JSON text field: FerretDB's cost to read or write a document grows
 * with its number of nested values (measured: a 256-entry array of objects reads in 22 ms, the
 * same entries as one string in 7 ms), and it refuses nested arrays.
 */
export function encodeEntries(entries: IndexEntry[]): string {
  return JSON.stringify(
    entries.map((e): EntryTuple => {
      const t: EntryTuple = [
        e.event_id,
        e.received_ms,
        e.endpoint_id,
        e.method,
        e.source_ip,
        e.outcome,
        clip(e.reason),
        TO_CODE[e.status],
        clip(e.last_error),
        e.target_count,
        (e.test ? FLAG_TEST : 0) | (e.aggregated ? FLAG_AGGREGATED : 0) | (e.alert ? FLAG_ALERT : 0),
        e.retry_ms,
      ];
      if (e.placed_ms !== undefined) t.push(e.placed_ms - e.received_ms);
      return t;
    }),
  );
}

export function decodeEntries(text: string): IndexEntry[] {
  return (JSON.parse(text) as EntryTuple[]).map((t) => ({
    event_id: t[0],
    received_ms: t[1],
    endpoint_id: t[2],
    method: t[3],
    source_ip: t[4],
    outcome: t[5],
    reason: t[6],
    status: FROM_CODE[t[7]],
    last_error: t[8],
    target_count: t[9],
    test: (t[10] & FLAG_TEST) !== 0,
    aggregated: (t[10] & FLAG_AGGREGATED) !== 0,
    alert: (t[10] & FLAG_ALERT) !== 0,
    retry_ms: t[11] ?? null,
    ...(t[12] === undefined ? {} : { placed_ms: t[1] + t[12] }),
  }));
}

export const encodeChanges = (changes: IndexChange[]): string =>
  JSON.stringify(
    changes.map((c): ChangeTuple => {
      const t: ChangeTuple = [c.event_id, TO_CODE[c.status], clip(c.last_error), c.retry_ms];
      if (c.replaced_ms !== undefined) t.push(c.replaced_ms);
      return t;
    }),
  );
export const decodeChanges = (text: string): IndexChange[] =>
  (JSON.parse(text) as ChangeTuple[]).map((t) => ({
    event_id: t[0],
    status: FROM_CODE[t[1]],
    last_error: t[2],
    retry_ms: t[3] ?? null,
    ...(t[4] === undefined ? {} : { replaced_ms: t[4] }),
  }));
