// The spreadsheet output, Google Sheets: settings, columns per payload format
// and one attempt's append. Wired as a kind of the catalog once the kind-description model lands
// (docs/targets-spreadsheet.md).
export { cellOf, DELIVERY_ID_COLUMN, EMPTY_NAME_COLUMN, PAYLOAD_COLUMN, planRow, rowFields } from './columns';
export type { RowPlan } from './columns';
export { DEFAULT_SHEET_NAME, spreadsheetDescription, validateSpreadsheetConfig } from './config';
export type { SpreadsheetConfig } from './config';
export { deliverToSheet } from './deliver';
export type { SpreadsheetDeliveryDeps } from './deliver';
export { MAX_APPEND_BYTES, MAX_CELL_CHARS, MAX_COLUMNS } from './limits';
export { createSpreadsheetKind, SPREADSHEET_RETRY_SCHEDULE_MS, spreadsheetInfo } from './kind';
export type { GoogleAccess, SpreadsheetKindDeps } from './kind';
