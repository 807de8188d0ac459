import type { StatusGroup } from '../records';

/**
 * One row's entry in the index: enough to filter without reading the row. Stored with one-letter
 * keys to keep pages small (FerretDB 1.24 refuses nested arrays, so no tuples):
 * `{ i: event_id, t: received_ms, s: status, ip: source_ip, f: flags, x: text, g: generation }`.
 * - flags: bit 0 = test request, bit 1 = aggregated row;
 * - text: the rejection reason or the latest delivery error (what the error-text filter reads);
 * - generation: the row's `ixg` when this entry was written. A row indexed again (its message
 *   redelivered after a crash) gets a new generation, so the reader shows only the entry whose
 *   generation matches the row and a duplicate entry never shows twice.
 */
export interface EntryTuple {
  i: string;
  t: number;
  s: StatusCode;
  ip: string | null;
  f: number;
  x: string | null;
  g: string;
}

/** A later change of a row's status or error text: `{ i: event_id, s: status, x: text }`. */
export interface ChangeTuple {
  i: string;
  s: StatusCode;
  x: string | null;
}

export type StatusCode = 'c' | 'p' | 'e';
const TO_CODE: Record<StatusGroup, StatusCode> = { completed: 'c', pending: 'p', errors: 'e' };
const FROM_CODE: Record<StatusCode, StatusGroup> = { c: 'completed', p: 'pending', e: 'errors' };

export const FLAG_TEST = 1;
export const FLAG_AGGREGATED = 2;
/** Index entries keep this much of a reason or error; the row keeps it whole. */
export const ENTRY_TEXT_MAX = 200;

export interface IndexEntry {
  event_id: string;
  received_ms: number;
  status: StatusGroup;
  source_ip: string | null;
  test: boolean;
  aggregated: boolean;
  text: string | null;
  generation: string;
}

const clip = (text: string | null): string | null => (text === null ? null : text.slice(0, ENTRY_TEXT_MAX));

export function encodeEntry(e: IndexEntry): EntryTuple {
  const flags = (e.test ? FLAG_TEST : 0) | (e.aggregated ? FLAG_AGGREGATED : 0);
  return { i: e.event_id, t: e.received_ms, s: TO_CODE[e.status], ip: e.source_ip, f: flags, x: clip(e.text), g: e.generation };
}

export function decodeEntry(t: EntryTuple): IndexEntry {
  return {
    event_id: t.i,
    received_ms: t.t,
    status: FROM_CODE[t.s],
    source_ip: t.ip,
    test: (t.f & FLAG_TEST) !== 0,
    aggregated: (t.f & FLAG_AGGREGATED) !== 0,
    text: t.x,
    generation: t.g,
  };
}

export interface IndexChange {
  event_id: string;
  status: StatusGroup;
  text: string | null;
}

export const encodeChange = (c: IndexChange): ChangeTuple => ({ i: c.event_id, s: TO_CODE[c.status], x: clip(c.text) });
export const decodeChange = (t: ChangeTuple): IndexChange => ({ event_id: t.i, status: FROM_CODE[t.s], text: t.x });
