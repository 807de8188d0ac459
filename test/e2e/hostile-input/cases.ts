import type { RoleName, Roster } from './endpoints';
import { DESIGNED_STATUSES } from './oracle';
import type { Expectation } from './oracle';
import type { Prng } from './prng';
import type { WritePlan } from './raw-http';
import { encodeRequest, oneShot } from './request';
import type { RequestShape } from './request';

/** The gateway's defaults the expectations are computed from (docs/configuration.md). */
export const PLAN_LIMIT = 262144;
export const MAX_BODY = 1048576;

/** The classes of the standing hostile-input suite, one name each (docs/security.md). */
export const CLASSES = [
  'invalid-json',
  'overlong-body',
  'deep-nesting',
  'huge-key-counts',
  'xml-entities-doctype',
  'bad-base64',
  'query-strings',
  'oversized-headers',
  'malformed-headers',
  'percent-encoding-paths',
  'odd-methods',
  'content-length-lies',
  'chunked-bodies',
  'slow-bodies',
  'proto-keys',
] as const;
export type ClassName = (typeof CLASSES)[number];

export interface HostileCase {
  cls: ClassName;
  /** one line saying what the request is, for failure reports */
  what: string;
  plan: WritePlan;
  head: boolean;
  expect: Expectation;
  /** the sender stops sending on purpose: judged against the stall bound, not the answer bound */
  stalls?: boolean;
}

export interface Ctx {
  rng: Prng;
  roster: Roster;
}

export const ANY: Expectation = { statuses: DESIGNED_STATUSES };
export const only = (status: number, ...codes: string[]): Expectation => ({
  statuses: [status],
  ...(codes.length ? { codes } : {}),
});
export const ACCEPTED: Expectation = { statuses: [202] };

export interface BodyRequest {
  cls: ClassName;
  what: string;
  role: RoleName;
  method?: string;
  /** raw query string without `?` */
  query?: string;
  /** null: no Content-Type header */
  contentType?: string | null;
  body: Buffer;
  headers?: string[];
  framing?: RequestShape['framing'];
  /** what the payload steps answer when authentication passes */
  expect: Expectation;
  /** by default nine in ten requests carry valid credentials */
  authValid?: boolean;
}

/**
 * One request to an endpoint with a payload, credentials for the endpoint's auth mode and the
 * expected answer. Processing order (docs/ingest.md): a body over MAX_BODY_BYTES is 413 before
 * authentication; bad credentials are 401 before the payload is read.
 */
export function bodyRequest(ctx: Ctx, r: BodyRequest): HostileCase {
  const { rng, roster } = ctx;
  const valid = r.authValid ?? rng.bool(0.9);
  const credentials = roster.credentials(r.role, r.body, valid, rng.int(0, 1));
  const headers = [
    ...(r.contentType === null ? [] : [`Content-Type: ${r.contentType ?? defaultType(roster.format(r.role))}`]),
    ...credentials,
    ...(r.headers ?? []),
  ];
  const method = r.method ?? 'POST';
  const shape: RequestShape = {
    method,
    target: `/relay/${roster.id[r.role]}${r.query !== undefined ? `?${r.query}` : ''}`,
    headers,
    body: r.body,
    framing: r.framing,
  };
  const refusedAuth = roster.authenticated(r.role) && !valid && r.body.length <= MAX_BODY;
  return {
    cls: r.cls,
    what: `${method} ${r.role}: ${r.what}${roster.authenticated(r.role) ? (valid ? ', valid credentials' : ', bad credentials') : ''}`,
    plan: oneShot(encodeRequest(shape)),
    head: method === 'HEAD',
    expect: refusedAuth ? only(401, 'auth_failed') : r.expect,
  };
}

export function defaultType(format: string): string {
  switch (format) {
    case 'json':
      return 'application/json';
    case 'form':
      return 'application/x-www-form-urlencoded';
    case 'xml':
      return 'application/xml';
    case 'text':
      return 'text/plain';
    default:
      return 'application/octet-stream';
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The documented JSON rule (payload-formats.md): one UTF-8 JSON document, a leading BOM ignored. */
export function jsonValid(bytes: Buffer): boolean {
  try {
    JSON.parse(strictUtf8.decode(bytes));
    return true;
  } catch {
    return false;
  }
}

/** A random JSON value, shallow (depth ≤ 4), with unicode, escapes and every type. */
export function randomJson(rng: Prng, depth = 0): unknown {
  const kind = rng.int(0, depth >= 3 ? 4 : 6);
  switch (kind) {
    case 0:
      return rng.int(-1e6, 1e6) / (rng.bool() ? 1 : 7);
    case 1:
      return rng.pick([true, false, null]);
    case 2:
    case 3:
      return randomText(rng, rng.int(0, 24));
    case 4:
      return rng.int(0, 1e9);
    case 5: {
      const a: unknown[] = [];
      for (let i = rng.int(0, 5); i > 0; i--) a.push(randomJson(rng, depth + 1));
      return a;
    }
    default: {
      const o: Record<string, unknown> = {};
      for (let i = rng.int(0, 6); i > 0; i--) o[randomText(rng, rng.int(1, 10))] = randomJson(rng, depth + 1);
      return o;
    }
  }
}

const TEXT_ALPHABET = 'abcXYZ019 _-"\\/\t\n\u00e9\u20ac\u{1F600}\u2028\u0000<>&';

export function randomText(rng: Prng, n: number): string {
  return Array.from(rng.chars(n, TEXT_ALPHABET)).join('');
}

/** A JSON document as bytes, an object at the root, with random insignificant whitespace. */
export function randomJsonBytes(rng: Prng): Buffer {
  const o: Record<string, unknown> = { event: rng.pick(['order.created', 'ping', 'x']), data: randomJson(rng) };
  return Buffer.from(JSON.stringify(o, null, rng.pick([0, 0, 1, 2])));
}
