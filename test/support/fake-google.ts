import express from 'express';
import type { Request, Response } from 'express';
import { createPublicKey, createVerify, randomBytes } from 'node:crypto';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSsrfAgents, sendRequest } from '@relay/targets';
import type { SendOutcome } from '@relay/targets';
import type { HttpRequest } from '../../libs/targets/src/http/send';
import { GOOGLE_RESPONSE_LIMIT_BYTES } from '../../libs/targets/src/transports/google';
import { rewriteToFake } from './fake-platform';
import { selfSigned } from './rsa-keys';

/*
 * A local HTTPS stand-in for Google's OAuth 2.0 token endpoint and the Sheets API v4 values
 * methods the spreadsheet kind calls, enforcing their documented behaviour:
 * - POST /token (JWT bearer grant, RFC 7523): the assertion's RS256 signature is verified with
 *   the registered service account's public key; iss, aud, scope, iat/exp (≤ 1 h) checked;
 *   400 {"error":"invalid_grant",…} otherwise. Tokens expire (expires_in), then answer 401.
 * - values:batchGet (GET), values.update (PUT), values:append (POST) with valueInputOption=RAW;
 *   404 NOT_FOUND for an unknown spreadsheet, 403 PERMISSION_DENIED when it is not shared with
 *   the caller, 400 "Unable to parse range" for an unknown tab, 400 past 50,000 characters in a
 *   cell or past the spreadsheet's cell limit, 429 RESOURCE_EXHAUSTED past the write quota per
 *   minute. Trailing empty cells and rows are left out of answers, as Sheets does.
 * Requests reach it through Relay's own sender: the real Google host is swapped for the fake's
 * loopback address (fake-platform.ts), the SSRF guard stays on with only 127.0.0.1/32 allowed,
 * and the fake's self-signed certificate is the only extra trust anchor.
 */

export const GOOGLE_HOSTS = ['oauth2.googleapis.com', 'sheets.googleapis.com'];

export interface FakeSpreadsheet {
  /** tab name → rows of cells */
  sheets: Map<string, Array<Array<string | number | boolean>>>;
  /** service-account emails it is shared with (editor) */
  sharedWith: Set<string>;
}

export interface FakeGoogle {
  readonly baseUrl: string;
  /** its certificate (PEM), for a client's extra CA */
  readonly ca: string;
  readonly spreadsheets: Map<string, FakeSpreadsheet>;
  /** requests in arrival order: `POST /token`, `GET …:batchGet`, … */
  readonly log: string[];
  registerServiceAccount(email: string, publicKeyPem: string): void;
  addSpreadsheet(id: string, opts: { sharedWith: string[]; sheets?: string[] }): FakeSpreadsheet;
  rows(id: string, sheet?: string): Array<Array<string | number | boolean>>;
  /** lifetime of tokens issued from now on */
  setTokenLifetime(seconds: number): void;
  /** every token issued so far answers 401 from now on (as if it had expired) */
  expireTokens(): void;
  /** write requests allowed per minute per service account; null = unlimited */
  setWriteQuota(perMinute: number | null): void;
  /** the next append is applied, then its answer is cut short (an ambiguous failure) */
  dropNextAppendAnswer(): void;
  /** the next append is applied, then its connection is closed before any byte of an answer */
  dropNextAppendConnection(): void;
  setCellLimit(cells: number): void;
  send(req: HttpRequest): Promise<SendOutcome>;
  close(): Promise<void>;
}

type Row = Array<string | number | boolean>;

function googleError(res: Response, code: number, status: string, message: string): void {
  res.status(code).json({ error: { code, message, status } });
}

function verifyAssertion(
  jwt: string,
  keys: Map<string, string>,
  nowSec: number,
): { ok: true; email: string } | { ok: false; description: string } {
  const parts = jwt.split('.');
  if (parts.length !== 3) return { ok: false, description: 'Invalid JWT: not a JWT' };
  let header: { alg?: string };
  let claims: { iss?: string; aud?: string; scope?: string; iat?: number; exp?: number };
  try {
    header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString()) as typeof header;
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString()) as typeof claims;
  } catch {
    return { ok: false, description: 'Invalid JWT: unreadable' };
  }
  if (header.alg !== 'RS256') return { ok: false, description: 'Invalid JWT: alg must be RS256' };
  const pem = keys.get(claims.iss ?? '');
  if (!pem) return { ok: false, description: 'Invalid grant: account not found' };
  const valid = createVerify('RSA-SHA256')
    .update(`${parts[0]}.${parts[1]}`)
    .verify(createPublicKey(pem), Buffer.from(parts[2]!, 'base64url'));
  if (!valid) return { ok: false, description: 'Invalid JWT Signature.' };
  if (claims.aud !== 'https://oauth2.googleapis.com/token')
    return {
      ok: false,
      description:
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
    };
  if (
    typeof claims.iat !== 'number' ||
    typeof claims.exp !== 'number' ||
    claims.exp - claims.iat > 3600 ||
    claims.exp < nowSec ||
    claims.iat > nowSec + 300
  ) {
    return {
      ok: false,
      description:
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
    };
  }
  if (!(claims.scope ?? '').split(' ').includes('https://www.googleapis.com/auth/spreadsheets'))
    return { ok: false, description: 'Invalid OAuth scope or ID token audience provided.' };
  return { ok: true, email: claims.iss! };
}

/** `'Tab'!A2:A`, `'Tab'!1:1`, `'Tab'!C1:E1`, `'Tab'!A1` → the tab and a rectangle (0-based, end inclusive, open = Infinity). */
export function parseRange(a1: string): { sheet: string; r0: number; r1: number; c0: number; c1: number } | null {
  const bang = a1.lastIndexOf('!');
  if (bang < 0) return null;
  let sheet = a1.slice(0, bang);
  if (sheet.startsWith("'") && sheet.endsWith("'")) sheet = sheet.slice(1, -1).replace(/''/g, "'");
  const ref = a1.slice(bang + 1);
  const col = (s: string): number => [...s].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
  let m = /^(\d+):(\d+)$/.exec(ref);
  if (m) return { sheet, r0: Number(m[1]) - 1, r1: Number(m[2]) - 1, c0: 0, c1: Infinity };
  m = /^([A-Z]+)(\d*):([A-Z]+)(\d*)$/.exec(ref);
  if (m)
    return {
      sheet,
      r0: m[2] ? Number(m[2]) - 1 : 0,
      r1: m[4] ? Number(m[4]) - 1 : Infinity,
      c0: col(m[1]!),
      c1: col(m[3]!),
    };
  m = /^([A-Z]+)(\d+)$/.exec(ref);
  if (m) return { sheet, r0: Number(m[2]) - 1, r1: Number(m[2]) - 1, c0: col(m[1]!), c1: col(m[1]!) };
  return null;
}

function trimRow(row: Row): Row {
  let end = row.length;
  while (end > 0 && (row[end - 1] === '' || row[end - 1] === undefined)) end--;
  return row.slice(0, end);
}

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const pems = selfSigned([{ name: 'commonName', value: 'localhost' }], {
    algorithm: 'sha256',
    days: 1,
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const keys = new Map<string, string>();
  const tokens = new Map<string, { email: string; expiresAt: number }>();
  const spreadsheets = new Map<string, FakeSpreadsheet>();
  const log: string[] = [];
  let lifetimeSec = 3600;
  let writeQuota: number | null = null;
  const writes = new Map<string, number[]>();
  let dropAppend = false;
  let dropAppendConnection = false;
  let cellLimit = 10_000_000;

  const app = express();
  app.use(express.urlencoded({ extended: false, limit: '64kb', type: 'application/x-www-form-urlencoded' }));
  app.use(express.json({ limit: '10mb', type: () => true }));
  app.post('/token', (req: Request, res: Response) => {
    log.push('POST /token');
    const body = req.body as Record<string, string>;
    if (body.grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      return res.status(400).json({ error: 'unsupported_grant_type', error_description: 'Invalid grant_type: ' });
    const checked = verifyAssertion(body.assertion ?? '', keys, Math.floor(Date.now() / 1000));
    if (!checked.ok) return res.status(400).json({ error: 'invalid_grant', error_description: checked.description });
    const token = `ya29.fake-${randomBytes(12).toString('hex')}`;
    tokens.set(token, { email: checked.email, expiresAt: Date.now() + lifetimeSec * 1000 });
    return res.json({ access_token: token, expires_in: lifetimeSec, token_type: 'Bearer' });
  });

  app.use('/v4/spreadsheets/', (req: Request, res: Response) => {
    const path = req.path.replace(/^\//, '');
    log.push(`${req.method} ${decodeURIComponent(path)}`);
    const auth = /^Bearer (.+)$/.exec(req.get('authorization') ?? '');
    const session = auth ? tokens.get(auth[1]!) : undefined;
    if (!session || session.expiresAt <= Date.now()) {
      return googleError(
        res,
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      );
    }
    const m = /^([^/]+)\/values(?::batchGet|\/(.+?)(:append)?)$/.exec(path);
    if (!m) return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
    const book = spreadsheets.get(decodeURIComponent(m[1]!));
    if (!book) return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
    if (!book.sharedWith.has(session.email))
      return googleError(res, 403, 'PERMISSION_DENIED', 'The caller does not have permission');
    const isWrite = req.method !== 'GET';
    if (isWrite && writeQuota !== null) {
      const now = Date.now();
      const recent = (writes.get(session.email) ?? []).filter((t) => t > now - 60_000);
      if (recent.length >= writeQuota) {
        return googleError(
          res,
          429,
          'RESOURCE_EXHAUSTED',
          "Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user' of service 'sheets.googleapis.com'.",
        );
      }
      writes.set(session.email, [...recent, now]);
    }
    if (req.method === 'GET') return batchGet(book, req, res);
    const range = parseRange(decodeURIComponent(m[2] ?? ''));
    const tab = range ? book.sheets.get(range.sheet) : undefined;
    if (!range || !tab)
      return googleError(res, 400, 'INVALID_ARGUMENT', `Unable to parse range: ${decodeURIComponent(m[2] ?? '')}`);
    if (req.query.valueInputOption !== 'RAW')
      return googleError(res, 400, 'INVALID_ARGUMENT', "'valueInputOption' is required but not specified");
    const values = (req.body as { values?: Row[] }).values ?? [];
    if (values.some((r) => r.some((c) => typeof c === 'string' && c.length > 50_000))) {
      return googleError(
        res,
        400,
        'INVALID_ARGUMENT',
        'Your input contains more than the maximum of 50000 characters in a single cell.',
      );
    }
    const cells =
      [...book.sheets.values()].reduce((n, rows) => n + rows.reduce((k, r) => k + r.length, 0), 0) +
      values.reduce((n, r) => n + r.length, 0);
    if (cells > cellLimit)
      return googleError(
        res,
        400,
        'INVALID_ARGUMENT',
        `This action would increase the number of cells in the workbook above the limit of ${cellLimit.toLocaleString('en-US')} cells.`,
      );
    if (req.method === 'PUT' && !m[3]) {
      const row = (tab[range.r0] ??= []);
      (values[0] ?? []).forEach((v, i) => {
        while (row.length < range.c0 + i) row.push('');
        row[range.c0 + i] = v;
      });
      return res.json({
        spreadsheetId: m[1],
        updatedRange: decodeURIComponent(m[2]!),
        updatedRows: 1,
        updatedCells: values[0]?.length ?? 0,
      });
    }
    if (req.method === 'POST' && m[3]) {
      for (const r of values) tab.push([...r]);
      if (dropAppendConnection) {
        // applied, and no answer at all: on a kept-alive connection this is what a stale close looks like
        dropAppendConnection = false;
        req.socket.destroy();
        return undefined;
      }
      if (dropAppend) {
        // applied, but the answer is cut after its first bytes: the client cannot tell whether
        // the row went in (a cut before any byte would look like a stale keep-alive close)
        dropAppend = false;
        res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', 'content-length': '200' });
        res.write('{"spreadsheetId":');
        setTimeout(() => req.socket.destroy(), 20);
        return undefined;
      }
      return res.json({
        spreadsheetId: m[1],
        updates: {
          updatedRange: `${range.sheet}!A${tab.length}`,
          updatedRows: values.length,
          updatedCells: values.reduce((n, r) => n + r.length, 0),
        },
      });
    }
    return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
  });

  function batchGet(book: FakeSpreadsheet, req: Request, res: Response): void {
    const ranges = ([] as unknown[]).concat(req.query.ranges ?? []).map(String);
    const valueRanges = [];
    for (const a1 of ranges) {
      const range = parseRange(a1);
      const tab = range ? book.sheets.get(range.sheet) : undefined;
      if (!range || !tab) return googleError(res, 400, 'INVALID_ARGUMENT', `Unable to parse range: ${a1}`);
      const rows = tab
        .slice(range.r0, range.r1 === Infinity ? undefined : range.r1 + 1)
        .map((r) => trimRow(r.slice(range.c0, range.c1 === Infinity ? undefined : range.c1 + 1)));
      while (rows.length > 0 && rows[rows.length - 1]!.length === 0) rows.pop();
      valueRanges.push(
        rows.length > 0 ? { range: a1, majorDimension: 'ROWS', values: rows } : { range: a1, majorDimension: 'ROWS' },
      );
    }
    res.json({ spreadsheetId: req.path.split('/')[1], valueRanges });
  }

  const server = https.createServer({ key: pems.private, cert: pems.cert }, app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = createSsrfAgents({ allowCidrs: ['127.0.0.1/32'], ca: pems.cert });

  return {
    baseUrl,
    ca: pems.cert,
    spreadsheets,
    log,
    registerServiceAccount: (email, pem) => keys.set(email, pem),
    addSpreadsheet: (id, opts) => {
      const book: FakeSpreadsheet = {
        sheets: new Map((opts.sheets ?? ['Sheet1']).map((s) => [s, []])),
        sharedWith: new Set(opts.sharedWith),
      };
      spreadsheets.set(id, book);
      return book;
    },
    rows: (id, sheet = 'Sheet1') => (spreadsheets.get(id)?.sheets.get(sheet) ?? []).map(trimRow),
    setTokenLifetime: (s) => (lifetimeSec = s),
    expireTokens: () => {
      for (const t of tokens.values()) t.expiresAt = 0;
    },
    setWriteQuota: (n) => {
      writeQuota = n;
      writes.clear();
    },
    dropNextAppendAnswer: () => (dropAppend = true),
    dropNextAppendConnection: () => (dropAppendConnection = true),
    setCellLimit: (n) => (cellLimit = n),
    send: (req) =>
      sendRequest(
        { ...req, url: rewriteToFake('Google', GOOGLE_HOSTS, req.url, baseUrl) },
        {
          timeoutMs: 2_000,
          agent,
          maxResponseBytes: GOOGLE_RESPONSE_LIMIT_BYTES,
          responseLimitBytes: GOOGLE_RESPONSE_LIMIT_BYTES,
        },
      ),
    close: () => {
      agent.https.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
