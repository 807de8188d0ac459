import type { StatusGroup } from '@relay/store';
import type { ListedRow } from '../driver';

/**
 * A row as the list shows it, kept in its index page so that listing reads pages only, never
 * rows.
 */
export type IndexEntry = ListedRow;

/** A later change of a row's status or latest error. */
export interface IndexChange {
  event_id: string;
  status: StatusGroup;
  last_error: string | null;
  retry_ms: number | null;
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

// the next attempt's time came last (2026-11-26): pages written before have no such element, read as null
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
];
type ChangeTuple = [string, StatusCode, string | null, (number | null)?];

/**
 * A page is stored as one JSON text field: FerretDB's cost to read or write a document grows
 * with its number of nested values (measured: a 256-entry array of objects reads in 22 ms, the
 * same entries as one string in 7 ms), and it refuses nested arrays.
 */
export function encodeEntries(entries: IndexEntry[]): string {
  return JSON.stringify(
    entries.map((e): EntryTuple => [
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
    ]),
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
  }));
}

export const encodeChanges = (changes: IndexChange[]): string =>
  JSON.stringify(changes.map((c): ChangeTuple => [c.event_id, TO_CODE[c.status], clip(c.last_error), c.retry_ms]));
export const decodeChanges = (text: string): IndexChange[] =>
  (JSON.parse(text) as ChangeTuple[]).map((t) => ({
    event_id: t[0],
    status: FROM_CODE[t[1]],
    last_error: t[2],
    retry_ms: t[3] ?? null,
  }));
