import type { FieldError, Validation } from '@relay/contracts';
import { readServiceAccountKey } from '../../transports/google';
import type { ServiceAccountKey } from '../../transports/google';
import { MAX_SHEET_NAME_LENGTH } from './limits';

/** A spreadsheet target's settings (issue 23, item 4). */
export interface SpreadsheetConfig {
  spreadsheet_id: string;
  /** the tab rows are appended to */
  sheet_name: string;
  /** the service account's key as JSON text (client_email, private_key, private_key_id); the kind stores it sealed */
  service_account_key: string;
  /** the key's client_email: not secret, shown so the owner knows whom to share the sheet with */
  service_account_email: string;
}

/** Google's spreadsheet ids (44 characters today) in the `/d/<id>/` segment of the sheet's URL. */
const SPREADSHEET_ID = /^[A-Za-z0-9_-]{20,128}$/;
const SHEET_URL = /^https:\/\/docs\.google\.com\/spreadsheets\/d\/([A-Za-z0-9_-]{20,128})(?:[/?#]|$)/;
const CONTROL = /[\u0000-\u001f\u007f]/;
const KNOWN = new Set(['spreadsheet_id', 'sheet_name', 'service_account_key']);

export const DEFAULT_SHEET_NAME = 'Sheet1';

/**
 * Save-time validation; every problem at its field, and no message quotes the key. A sheet's
 * URL is accepted for spreadsheet_id and reduced to the id. The key comes back as normalized
 * JSON text, not yet sealed: the kind seals it before it is stored.
 */
export function validateSpreadsheetConfig(input: unknown): Validation<SpreadsheetConfig> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return { ok: false, errors: [{ field: 'config', message: 'config must be an object' }] };
  const raw = input as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const k of Object.keys(raw)) if (!KNOWN.has(k)) errors.push({ field: `config.${k}`, message: `unknown setting ${k}` });
  const id = readId(raw.spreadsheet_id, errors);
  const sheet = readSheetName(raw.sheet_name, errors);
  let key: ServiceAccountKey | null = null;
  if (raw.service_account_key === undefined || raw.service_account_key === '') {
    errors.push({ field: 'config.service_account_key', message: 'service_account_key is required: the JSON key file of a Google service account' });
  } else {
    const read = readServiceAccountKey(raw.service_account_key);
    if (read.ok) key = read.key;
    else errors.push({ field: 'config.service_account_key', message: `service_account_key ${read.message}` });
  }
  if (errors.length > 0 || key === null) return { ok: false, errors };
  return { ok: true, value: { spreadsheet_id: id, sheet_name: sheet, service_account_key: JSON.stringify(key), service_account_email: key.client_email } };
}

function readId(value: unknown, errors: FieldError[]): string {
  if (typeof value !== 'string' || value.trim() === '') {
    errors.push({ field: 'config.spreadsheet_id', message: 'spreadsheet_id is required: the id in the sheet URL …/spreadsheets/d/<id>/' });
    return '';
  }
  const v = value.trim();
  const fromUrl = SHEET_URL.exec(v)?.[1];
  if (fromUrl) return fromUrl;
  if (!SPREADSHEET_ID.test(v)) errors.push({ field: 'config.spreadsheet_id', message: 'spreadsheet_id must be the id in the sheet URL …/spreadsheets/d/<id>/ (letters, digits, - and _)' });
  return v;
}

function readSheetName(value: unknown, errors: FieldError[]): string {
  if (value === undefined || value === '') return DEFAULT_SHEET_NAME;
  if (typeof value !== 'string') {
    errors.push({ field: 'config.sheet_name', message: 'sheet_name must be text' });
    return '';
  }
  if (value.length > MAX_SHEET_NAME_LENGTH) errors.push({ field: 'config.sheet_name', message: `sheet_name must be at most ${MAX_SHEET_NAME_LENGTH} characters` });
  else if (CONTROL.test(value)) errors.push({ field: 'config.sheet_name', message: 'sheet_name must not contain control characters or line breaks' });
  return value;
}
