import type { RawResponse, RawResult } from './raw-http';

/**
 * What counts as a designed answer (docs/ingest.md "Outcome codes", docs/security.md):
 *
 * - a status from the documented set — the ingest table's 202, 400, 401, 403, 404, 405, 413,
 *   415, 429 and 503, plus the protocol-level refusals a gateway must give itself: 408 (a body
 *   or header section that stopped arriving), 431 (a header section over the server's limit) and
 *   417 (an Expect the gateway refuses — with its row, like any refusal);
 * - no other 5xx: a 503 only with one of the spec's two codes and a Retry-After;
 * - every answer but 202 and HEAD's carries the one JSON shape `{ code, message }`; 202 carries
 *   exactly `{"message":"Payload received"}`; 405 carries Allow; 429 carries Retry-After;
 * - the answer comes within the bound, and the server then closes the connection the request
 *   asked to close.
 */
export const DESIGNED_STATUSES = [202, 400, 401, 403, 404, 405, 408, 413, 415, 417, 429, 431, 503] as const;

export interface Expectation {
  /** statuses this request may get (each must also be designed) */
  statuses: readonly number[];
  /** when set, the JSON `code` must be one of these */
  codes?: readonly string[];
  /** the sender hung up mid-request: closing without an answer is acceptable too */
  mayCloseUnanswered?: boolean;
  /** the bytes hold more than one request (a Content-Length shorter than the body): every answer is judged, at least one is required */
  several?: boolean;
}

/** A request that reaches acceptance may also meet a broker that did not confirm in time. */
const QUEUE_UNAVAILABLE = { status: 503, code: 'delivery_queue_unavailable' };

export function judge(result: RawResult, expect: Expectation, head: boolean): string | null {
  if (result.timedOut) return `no answer and no close within the bound (${describe(result)})`;
  if (result.keptOpen)
    return `answered ${result.responses[0]?.status}, then kept the connection open although the request asked to close it`;
  if (result.responses.length === 0) {
    if (expect.mayCloseUnanswered) return null;
    return `connection closed without an answer (${describe(result)})`;
  }
  if (result.responses.length > 1 && !expect.several)
    return `${result.responses.length} answers to one request: ${result.responses.map((r) => r.status).join(', ')}`;
  for (const r of result.responses) {
    const problem = designed(r, head) ?? expected(r, expect, head);
    if (problem) return problem;
  }
  return null;
}

function expected(r: RawResponse, expect: Expectation, head: boolean): string | null {
  const code = codeOf(r);
  if (expect.statuses.includes(202) && r.status === QUEUE_UNAVAILABLE.status && code === QUEUE_UNAVAILABLE.code)
    return null;
  if (!expect.statuses.includes(r.status)) return `expected ${expect.statuses.join('|')}, got ${summary(r)}`;
  if (expect.codes && r.status !== 202 && !head && (code === undefined || !expect.codes.includes(code)))
    return `expected code ${expect.codes.join('|')}, got ${summary(r)}`;
  return null;
}

/** Whether one answer has a designed status and shape; null when it does. */
export function designed(r: RawResponse, head: boolean): string | null {
  if (!(DESIGNED_STATUSES as readonly number[]).includes(r.status))
    return `status ${r.status} is not a designed answer: ${summary(r)}`;
  if (r.status === 503) {
    const code = codeOf(r);
    if (!head && code !== 'endpoint_unavailable' && code !== 'delivery_queue_unavailable')
      return `503 with code ${code}: ${summary(r)}`;
    if (r.headers['retry-after'] === undefined) return `503 without Retry-After: ${summary(r)}`;
  }
  if (r.status === 429 && r.headers['retry-after'] === undefined) return `429 without Retry-After: ${summary(r)}`;
  if (r.status === 405 && r.headers.allow === undefined) return `405 without Allow: ${summary(r)}`;
  if (head) return null;
  if (r.status === 202)
    return r.body.toString('utf8') === '{"message":"Payload received"}' ? null : `202 with body ${clip(r.body)}`;
  if (!/^application\/json\b/i.test(r.headers['content-type'] ?? '')) return `no JSON body: ${summary(r)}`;
  const parsed = parse(r.body);
  if (typeof parsed?.code !== 'string' || parsed.code === '' || typeof parsed.message !== 'string')
    return `body is not {code, message}: ${summary(r)}`;
  return null;
}

function codeOf(r: RawResponse): string | undefined {
  const parsed = parse(r.body);
  return typeof parsed?.code === 'string' ? parsed.code : undefined;
}

function parse(body: Buffer): { code?: unknown; message?: unknown } | null {
  try {
    const v: unknown = JSON.parse(body.toString('utf8'));
    return v !== null && typeof v === 'object' ? (v as { code?: unknown; message?: unknown }) : null;
  } catch {
    return null;
  }
}

export function summary(r: RawResponse): string {
  const ct = r.headers['content-type'];
  return `${r.status}${ct ? ` (${ct})` : ' (no Content-Type)'} ${r.body.length ? clip(r.body) : '<empty body>'}`;
}

function describe(result: RawResult): string {
  const bits = [`${result.responses.length} answers`, `${result.unparsed} unparsed bytes`];
  if (result.error) bits.push(`socket ${result.error}`);
  if (result.interim.length) bits.push(`interim ${result.interim.join(',')}`);
  return bits.join(', ');
}

function clip(b: Buffer): string {
  const s = b.toString('utf8');
  return JSON.stringify(s.length > 160 ? `${s.slice(0, 160)}…` : s);
}
