import type { Validation } from '@relay/contracts';
import type { CheckContext, KindDescription } from '../../describe/field';
import { checkDescribed } from '../../describe/validate';
import { readServiceAccountKey } from '../../transports/google';
import { MAX_SHEET_NAME_LENGTH } from './limits';

/** A spreadsheet target's settings. */
export interface SpreadsheetConfig {
  spreadsheet_id: string;
  /** the tab rows are appended to */
  sheet_name: string;
  /** the service account's key as JSON text (client_email, private_key, private_key_id); stored sealed */
  service_account_key: string;
}

/** Google's spreadsheet ids (44 characters today) in the `/d/<id>/` segment of the sheet's URL. */
const SPREADSHEET_ID = /^[A-Za-z0-9_-]{20,128}$/;
const SHEET_URL = /^https:\/\/docs\.google\.com\/spreadsheets\/d\/([A-Za-z0-9_-]{20,128})(?:[/?#]|$)/;
const CONTROL = /[\u0000-\u001f\u007f]/;

export const DEFAULT_SHEET_NAME = 'Sheet1';

/** The id itself, or the sheet's URL reduced to it. */
function checkId(value: string, ctx: CheckContext): string | undefined {
  const fromUrl = SHEET_URL.exec(value)?.[1];
  if (fromUrl) return fromUrl;
  if (!SPREADSHEET_ID.test(value))
    ctx.fail('spreadsheet_id must be the id in the sheet URL …/spreadsheets/d/<id>/ (letters, digits, - and _)');
  return undefined;
}

/** Only client_email, private_key and private_key_id are kept (token_uri is ignored); no message quotes the key. */
function checkKey(value: string, ctx: CheckContext): string | undefined {
  const read = readServiceAccountKey(value);
  if (!read.ok) return void ctx.fail(`service_account_key ${read.message}`);
  return JSON.stringify(read.key);
}

/**
 * The spreadsheet target's settings, described once. The key is a
 * credential: sealed at rest, shown as set, never returned.
 */
export const spreadsheetDescription: KindDescription = {
  label: 'Spreadsheet (Google Sheets)',
  help: "Each event as a row of a Google Sheet, a column per top-level field; share the sheet with the service account's client_email as Editor. docs/targets-spreadsheet.md.",
  fields: {
    spreadsheet_id: {
      type: 'string',
      label: 'Spreadsheet id or URL',
      required: true,
      requiredMessage: 'spreadsheet_id is required: the id in the sheet URL …/spreadsheets/d/<id>/',
      trim: true,
      maxLength: 300,
      example: '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms',
      check: checkId,
    },
    sheet_name: {
      type: 'string',
      label: 'Sheet (tab) name',
      default: DEFAULT_SHEET_NAME,
      minLength: 1,
      maxLength: MAX_SHEET_NAME_LENGTH,
      example: 'Leads',
      check: (value: string, ctx) =>
        CONTROL.test(value)
          ? void ctx.fail('sheet_name must not contain control characters or line breaks')
          : undefined,
    },
    service_account_key: {
      type: 'string',
      label: 'Service account key (JSON)',
      required: true,
      requiredMessage: 'service_account_key is required: the JSON key file of a Google service account',
      credential: true,
      multiline: true,
      maxLength: 16_384,
      help: 'the JSON key file of a Google service account; a secret: stored sealed, never shown',
      check: checkKey,
    },
  },
};

/** Save-time checks, nothing sealed: the kind seals the key (validateDescribed). */
export function validateSpreadsheetConfig(input: unknown): Validation<SpreadsheetConfig> {
  return checkDescribed(spreadsheetDescription, input) as Validation<SpreadsheetConfig>;
}
