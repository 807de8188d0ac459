import type { DeliveryMessageV1 } from '@relay/contracts';
import { PayloadError, TargetConfigError } from '../../kind';
import type { AttemptResult } from '../../kind';
import { RESPONSE_TOO_LARGE } from '../../http/failures';
import { readServiceAccountKey } from '../../transports/google';
import type { Cell, ServiceAccountKey, SheetRef, SheetsClient } from '../../transports/google';
import { readPayload } from '../template';
import { planRow, rowFields } from './columns';
import type { SpreadsheetConfig } from './config';
import { MAX_APPEND_BYTES, MAX_CELL_CHARS, MAX_COLUMNS } from './caps';

export interface SpreadsheetDeliveryDeps {
  sheets: SheetsClient;
  /** the stored (sealed) key → its JSON text; throws when no configured secret key opens it */
  openKey(stored: string): string;
}

const permanent = (error: string, flagTarget: boolean): AttemptResult => ({
  result: 'permanent',
  status: null,
  error,
  flagTarget,
});

/**
 * One attempt of one delivery to a spreadsheet target. A payload past the
 * caps throws PayloadError (this delivery fails, the target is not flagged, and the failure
 * does not count towards the target's streak); a stored key that cannot be opened or read
 * throws TargetConfigError (the target is flagged). Google's answers are classified:
 * 1. the row is built and checked against the caps before any request;
 * 2. the header row is read — on every attempt after the first with the delivery-id column, and
 *    a row that an earlier attempt did append (its answer was lost, or its connection was reset
 *    before one: the append is never re-sent within an attempt) ends the attempt as a success. A
 *    broker redelivery counts as the next attempt (deliveryPosition), so it is checked too;
 * 3. fields never seen before are written at the end of the header, then the header is read
 *    again: a delivery that wrote other names there at the same moment makes this attempt
 *    retry rather than put values under the wrong names;
 * 4. the row is appended.
 */
export async function deliverToSheet(
  config: SpreadsheetConfig,
  d: DeliveryMessageV1,
  deps: SpreadsheetDeliveryDeps,
): Promise<AttemptResult> {
  const key = openKey(config, deps);
  const fields: Array<[string, Cell]> = rowFields(readPayload(d.payload));
  const tooLong = fields.find(([, v]) => typeof v === 'string' && v.length > MAX_CELL_CHARS);
  if (tooLong)
    throw new PayloadError(
      'CELL_TOO_LARGE',
      `field ${JSON.stringify(tooLong[0].slice(0, 80))} has more than ${MAX_CELL_CHARS} characters, Google's limit for one cell`,
    );
  const sheet: SheetRef = { spreadsheetId: config.spreadsheet_id, sheetName: config.sheet_name };

  const retried = d.attempt > 1;
  let read = await deps.sheets.readHeader(key, sheet, retried);
  // a sheet too long to read its id column within the answer limit: append without the check
  if (!read.ok && retried && read.networkCode === RESPONSE_TOO_LARGE)
    read = await deps.sheets.readHeader(key, sheet, false);
  if (!read.ok) return read.result;
  if (retried && read.value.ids.includes(d.delivery_id)) return { result: 'success', status: 200 };

  const plan = planRow(read.value.header, d.delivery_id, fields);
  if (!plan.ok) return permanent(plan.message, true);
  if (plan.header.length > MAX_COLUMNS)
    throw new PayloadError(
      'TOO_MANY_COLUMNS',
      `the sheet would have ${plan.header.length} columns; at most ${MAX_COLUMNS}`,
    );
  const bytes = Buffer.byteLength(JSON.stringify({ majorDimension: 'ROWS', values: [plan.row] }));
  if (bytes > MAX_APPEND_BYTES)
    throw new PayloadError(
      'ROW_TOO_LARGE',
      `the row is ${bytes} bytes; Google recommends at most ${MAX_APPEND_BYTES} per request`,
    );

  if (plan.newColumns.length > 0) {
    const wrote = await deps.sheets.writeHeader(key, sheet, plan.start, plan.newColumns);
    if (!wrote.ok) return wrote.result;
    const check = await deps.sheets.readHeader(key, sheet, false);
    if (!check.ok) return check.result;
    const placed = plan.header.every((name, i) => check.value.header[i] === name);
    if (!placed)
      return {
        result: 'retry',
        status: null,
        error:
          'the sheet header changed while new columns were added (another delivery at the same moment); the row was not appended',
      };
  }
  const appended = await deps.sheets.appendRow(key, sheet, plan.row);
  return appended.ok ? { result: 'success', status: 200 } : appended.result;
}

function openKey(config: SpreadsheetConfig, deps: SpreadsheetDeliveryDeps): ServiceAccountKey {
  let text: string;
  try {
    text = deps.openKey(config.service_account_key);
  } catch {
    throw new TargetConfigError(
      'SECRET_UNREADABLE',
      'the stored service account key cannot be opened with the configured secret keys',
    );
  }
  const read = readServiceAccountKey(text);
  if (!read.ok)
    throw new TargetConfigError('KEY_UNUSABLE', `the stored service account key is not usable: ${read.message}`);
  return read.key;
}
