import { describedConfig } from '../../describe/kind-config';
import type { KindInfo, SecretSealer, TransportKind } from '../../kind';
import { createSheetsClient, createTokenSource } from '../../transports/google';
import type { GoogleSend } from '../../transports/google';
import { spreadsheetDescription } from './config';
import type { SpreadsheetConfig } from './config';
import { deliverToSheet } from './deliver';

/**
 * Delays between attempts, in ms. The Sheets API's quotas refill every minute and Google asks
 * for exponential backoff after a 429 ("Usage limits"), so the schedule passes the one-minute
 * mark early, then backs off to an hour.
 */
export const SPREADSHEET_RETRY_SCHEDULE_MS: readonly number[] = [5_000, 30_000, 70_000, 300_000, 900_000, 3_600_000];

export const spreadsheetInfo: KindInfo = {
  kind: 'spreadsheet',
  channel: 'outputs',
  defaultRetryScheduleMs: SPREADSHEET_RETRY_SCHEDULE_MS,
  description: spreadsheetDescription,
  defaultLimits: { rate: 60, per: 'minute', max_in_flight: null },
  resendable: false,
};

/** How the deliverer reaches Google: its SSRF-guarded sender (answers capped at GOOGLE_RESPONSE_LIMIT_BYTES). */
export interface GoogleAccess {
  send: GoogleSend;
  /** GOOGLE_TOKEN_URL / GOOGLE_SHEETS_URL overrides (a private endpoint); default Google's */
  tokenUrl?: string;
  sheetsApi?: string;
}

export interface SpreadsheetKindDeps {
  secrets: SecretSealer;
  google?: GoogleAccess;
}

/**
 * The spreadsheet target, Google Sheets. The service-account key is sealed
 * before it is stored and shown only as set (the description marks it a credential). One token cache per kind instance, i.e. per deliverer process.
 */
export function createSpreadsheetKind(deps: SpreadsheetKindDeps): TransportKind<SpreadsheetConfig> {
  const google = deps.google;
  const sheets = google
    ? createSheetsClient({
        send: google.send,
        tokens: createTokenSource({ send: google.send, ...(google.tokenUrl ? { tokenUrl: google.tokenUrl } : {}) }),
        ...(google.sheetsApi ? { apiBase: google.sheetsApi } : {}),
        appendResendable: spreadsheetInfo.resendable,
      })
    : null;
  return {
    ...spreadsheetInfo,
    ...describedConfig<SpreadsheetConfig>(spreadsheetDescription, deps.secrets),
    deliver: async (config, d) => {
      if (!sheets)
        return {
          result: 'retry',
          status: null,
          error: 'this deliverer has no route to Google (not an outputs deliverer)',
        };
      return deliverToSheet(config, d, { sheets, openKey: (stored) => deps.secrets.decrypt(stored) });
    },
  };
}
