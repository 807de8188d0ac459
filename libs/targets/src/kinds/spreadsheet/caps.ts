/**
 * Caps of the spreadsheet kind, checked before anything is sent (docs/targets-spreadsheet.md
 * "Caps"). Google's published maxima: 50,000 characters in one cell (the API answers 400
 * "Your input contains more than the maximum of 50000 characters in a single cell"),
 * 10,000,000 cells per spreadsheet, 18,278 columns per sheet, and a recommended request
 * payload of at most 2 MB (Sheets API "Usage limits").
 */
export const MAX_CELL_CHARS = 50_000;
/**
 * Columns Relay lets a sheet grow to: one per top-level field ever seen plus the delivery-id
 * column. Far below Google's 18,278, so a payload with thousands of keys cannot spend a
 * spreadsheet's 10,000,000 cells in a few hundred rows.
 */
export const MAX_COLUMNS = 1_000;
/** Google's recommended maximum request payload, applied to the append's JSON body. */
export const MAX_APPEND_BYTES = 2 * 1024 * 1024;
/** Google's limit on a sheet (tab) name. */
export const MAX_SHEET_NAME_LENGTH = 100;
