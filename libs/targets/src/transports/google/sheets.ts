import type { AttemptResult } from '../../kind';
import { quoteSheet, columnLetters } from './a1';
import { classifyGoogleAnswer, googleNetworkFailure } from './errors';
import type { GoogleSend, TokenSource } from './token';
import type { ServiceAccountKey } from './service-account';

export const SHEETS_API = 'https://sheets.googleapis.com/v4/spreadsheets/';
/**
 * Bytes of a Sheets answer read (the sender's kept and limit bytes must be at least this). The
 * delivery-id column read before a retried append is the largest: about 30 bytes a row, so
 * this covers some 250,000 rows (docs/targets-spreadsheet.md "Retries never add a row twice").
 */
export const GOOGLE_RESPONSE_LIMIT_BYTES = 8 * 1024 * 1024;

/** A cell as the API takes it with valueInputOption=RAW: stored as given, never parsed as a formula. */
export type Cell = string | number | boolean;

export interface SheetRef {
  spreadsheetId: string;
  sheetName: string;
}

/** A failed call: its result for the attempt, and the sender's code when no answer came back. */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; result: AttemptResult; networkCode?: string };

export interface SheetsClient {
  /** row 1 of the sheet, and with `withIds` every value of column A below it */
  readHeader(
    key: ServiceAccountKey,
    sheet: SheetRef,
    withIds: boolean,
  ): Promise<ApiResult<{ header: string[]; ids: string[] }>>;
  /** writes `names` into row 1 from column `start` (0-based) on */
  writeHeader(key: ServiceAccountKey, sheet: SheetRef, start: number, names: string[]): Promise<ApiResult<null>>;
  /** spreadsheets.values.append of one row after the sheet's last row */
  appendRow(key: ServiceAccountKey, sheet: SheetRef, row: Cell[]): Promise<ApiResult<null>>;
}

type Method = 'GET' | 'POST' | 'PUT';

/**
 * The three Sheets API v4 calls the spreadsheet kind makes, through Relay's own guarded sender.
 * A 401 (the token expired or was revoked early) drops the cached token and the call is made
 * once more with a new one; any other failure is classified for the attempt.
 */
export function createSheetsClient(deps: {
  send: GoogleSend;
  tokens: TokenSource;
  /** default SHEETS_API */ apiBase?: string;
  /** whether an append may be sent again inside an attempt: the spreadsheet kind's `resendable` */
  appendResendable: boolean;
}): SheetsClient {
  const call = async (
    key: ServiceAccountKey,
    what: string,
    method: Method,
    url: string,
    body?: unknown,
    // a read, or a header written to the same cells, is the same however often it arrives
    resendable = true,
  ): Promise<ApiResult<unknown>> => {
    for (let tries = 0; tries < 2; tries++) {
      const token = await deps.tokens.get(key);
      if (!token.ok) return token;
      const outcome = await deps.send({
        method,
        url,
        headers: {
          authorization: `Bearer ${token.token}`,
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Relay-Sheets/1',
        },
        body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
        resendable,
      });
      if ('error' in outcome)
        return { ok: false, result: googleNetworkFailure(outcome.error.code), networkCode: outcome.error.code };
      const res = outcome.response;
      if (res.status === 401 && tries === 0) {
        deps.tokens.invalidate(key, token.token);
        continue;
      }
      if (res.status < 200 || res.status >= 300) return { ok: false, result: classifyGoogleAnswer(what, res) };
      try {
        return { ok: true, value: JSON.parse(res.body) as unknown };
      } catch {
        return { ok: false, result: { result: 'retry', status: res.status, error: `${what}: the answer is not JSON` } };
      }
    }
    return {
      ok: false,
      result: { result: 'retry', status: 401, error: `${what}: a new access token was refused too` },
    };
  };
  const api = deps.apiBase ?? SHEETS_API;
  const base = (s: SheetRef): string => `${api}${encodeURIComponent(s.spreadsheetId)}/values`;
  const range = (s: SheetRef, a1: string): string => encodeURIComponent(`${quoteSheet(s.sheetName)}!${a1}`);

  return {
    readHeader: async (key, sheet, withIds) => {
      const ranges = [`ranges=${range(sheet, '1:1')}`, ...(withIds ? [`ranges=${range(sheet, 'A2:A')}`] : [])];
      const got = await call(
        key,
        'Sheets values.batchGet',
        'GET',
        `${base(sheet)}:batchGet?${ranges.join('&')}&majorDimension=ROWS&valueRenderOption=FORMATTED_VALUE`,
      );
      if (!got.ok) return got;
      const valueRanges = (got.value as { valueRanges?: Array<{ values?: unknown[][] }> }).valueRanges ?? [];
      const header = (valueRanges[0]?.values?.[0] ?? []).map((v) => String(v));
      const ids = (valueRanges[1]?.values ?? []).map((row) => String(row[0] ?? ''));
      return { ok: true, value: { header, ids } };
    },
    writeHeader: async (key, sheet, start, names) => {
      const a1 = `${columnLetters(start)}1:${columnLetters(start + names.length - 1)}1`;
      const got = await call(
        key,
        'Sheets values.update',
        'PUT',
        `${base(sheet)}/${range(sheet, a1)}?valueInputOption=RAW`,
        { majorDimension: 'ROWS', values: [names] },
      );
      return got.ok ? { ok: true, value: null } : got;
    },
    appendRow: async (key, sheet, row) => {
      const url = `${base(sheet)}/${range(sheet, 'A1')}:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS&includeValuesInResponse=false`;
      const values = { majorDimension: 'ROWS', values: [row] };
      const got = await call(key, 'Sheets values.append', 'POST', url, values, deps.appendResendable);
      return got.ok ? { ok: true, value: null } : got;
    },
  };
}
