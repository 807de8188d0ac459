import type { Cell } from '../../transports/google';
import type { ChatPayload } from '../template';
import { templateData } from '../template';

/** Column A of every sheet Relay writes: the delivery id, read before a retried append. */
export const DELIVERY_ID_COLUMN = 'relay_delivery_id';
/** The one synthetic column of a payload without fields (spec: None → only `payload`). */
export const PAYLOAD_COLUMN = 'payload';
/** A top-level field whose name is empty gets this header (Sheets drops a trailing empty header cell). */
export const EMPTY_NAME_COLUMN = '(empty name)';

/**
 * Spec "Feature interaction", row "Spreadsheet columns" — the (column,
 * value) pairs of one delivery, in the payload's order:
 * - None (empty payload) → only the synthetic field `payload`, empty;
 * - a JSON object (JSON, form, Query Parameters, an object in Base64 JSON) → every top-level
 *   field is a column; nested objects and arrays (a repeated query name) as JSON text;
 * - a Base64-JSON array or scalar, which has no fields → `payload` holding its JSON text;
 * - XML and plain text → `payload` holding the text as received.
 */
export function rowFields(payload: ChatPayload): Array<[string, Cell]> {
  if (payload.kind === 'empty') return [[PAYLOAD_COLUMN, '']];
  const data =
    payload.kind === 'text' && payload.form ? templateData(payload) : payload.kind === 'json' ? payload.value : null;
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    return Object.entries(data as Record<string, unknown>).map(([name, value]) => [
      name === '' ? EMPTY_NAME_COLUMN : name,
      cellOf(value),
    ]);
  }
  if (payload.kind === 'json') return [[PAYLOAD_COLUMN, JSON.stringify(payload.value) ?? '']];
  return [[PAYLOAD_COLUMN, payload.kind === 'text' ? payload.text : '']];
}

/** Strings, numbers and booleans as themselves (RAW input keeps "007" text); null empty; the rest JSON text. */
export function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  return JSON.stringify(value);
}

export type RowPlan =
  { ok: true; newColumns: string[]; start: number; header: string[]; row: Cell[] } | { ok: false; message: string };

/**
 * Places one delivery's fields under the sheet's header row: an empty sheet
 * gets the header `relay_delivery_id, <fields…>`; a field never seen before adds a column at
 * the end; a field the payload lacks leaves its cell empty. Columns are matched by exact name,
 * the first of equal names wins. A first row that does not start with `relay_delivery_id` is
 * someone else's sheet layout, which Relay does not write into.
 */
export function planRow(header: readonly string[], deliveryId: string, fields: ReadonlyArray<[string, Cell]>): RowPlan {
  const current = header.length === 0 ? [] : [...header];
  if (current.length > 0 && current[0] !== DELIVERY_ID_COLUMN) {
    return {
      ok: false,
      message: `cell A1 of the sheet must be ${DELIVERY_ID_COLUMN} (or the sheet empty); it holds another header`,
    };
  }
  const start = current.length;
  if (current.length === 0) current.push(DELIVERY_ID_COLUMN);
  const position = new Map<string, number>();
  current.forEach((name, i) => {
    if (i > 0 && !position.has(name)) position.set(name, i);
  });
  for (const [name] of fields) {
    if (!position.has(name)) {
      position.set(name, current.length);
      current.push(name);
    }
  }
  const row: Cell[] = new Array<Cell>(current.length).fill('');
  row[0] = deliveryId;
  for (const [name, value] of fields) row[position.get(name)!] = value;
  return { ok: true, newColumns: current.slice(start), start, header: current, row };
}
