// Google Sheets through Relay's own SSRF-guarded HTTP client: a service-account key exchanged
// for access tokens (OAuth 2.0 JWT bearer, signed with Node's crypto) and the three Sheets API
// calls the spreadsheet kind makes (docs/targets-spreadsheet.md).
export { columnLetters, quoteSheet } from './a1';
export { classifyGoogleAnswer } from './errors';
export { ASSERTION_LIFETIME_SEC, GOOGLE_TOKEN_URL, SHEETS_SCOPE, signAssertion } from './jwt';
export { readServiceAccountKey } from './service-account';
export type { ServiceAccountKey } from './service-account';
export { createSheetsClient, GOOGLE_RESPONSE_LIMIT_BYTES, SHEETS_API } from './sheets';
export type { ApiResult, Cell, SheetRef, SheetsClient } from './sheets';
export { createTokenSource, REFRESH_MARGIN_MS } from './token';
export type { GoogleSend, TokenResult, TokenSource, TokenSourceOptions } from './token';
