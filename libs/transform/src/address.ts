import { ResultError } from './result-error';

/**
 * Where a transformation sends a webhook delivery beneath its target's URL (docs/transformations.md
 * "What a result changes"): a path or query that differs from the received one. Absent fields are
 * the received ones, which a target does not send: its URL as configured.
 */
export interface Address {
  /** appended to the target URL's path */
  path?: string;
  /** a query string without `?` ('' when the result emptied it), added after the target URL's own */
  query?: string;
}

/** What the sender's request was addressed with: `/relay/<endpoint id>` and its raw query string. */
export interface Received {
  path: string;
  query: string;
}

export const MAX_PATH_CHARS = 2048;
export const MAX_QUERY_CHARS = 8192;

/** no C0 or C1 control character, nor DEL */
const PATH_CHARS = /^[\x20-\x7e\xa0-\uffff]*$/;
/** segment separators once escapes are read: URL parsers take `\` for `/`, and a receiver may decode `%2F` */
const SEPARATOR = /[/\\]|%2f|%5c/i;

/**
 * The address a result gives. A `path` or `query` that is missing keeps what the step was given
 * (`held`); one equal to the received one is left out, so a result that does not change them is
 * delivered to the target's URL as without a transformation. Throws ResultError naming the field.
 */
export function addressOf(
  result: Record<string, unknown>,
  held: Address | undefined,
  received: Received,
): Address | undefined {
  const path = result.path ?? undefined;
  const query = result.query ?? undefined;
  const out: Address = {};
  const nextPath = path === undefined ? held?.path : pathOf(path);
  if (nextPath !== undefined && nextPath !== received.path) out.path = nextPath;
  const nextQuery = query === undefined ? held?.query : queryOf(query);
  if (nextQuery !== undefined && !sameQuery(nextQuery, received.query)) out.query = nextQuery;
  return out.path === undefined && out.query === undefined ? undefined : out;
}

function pathOf(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/'))
    throw new ResultError('path must be a string starting with /');
  if (value.length > MAX_PATH_CHARS) throw new ResultError(`path: at most ${MAX_PATH_CHARS} characters`);
  if (!PATH_CHARS.test(value)) throw new ResultError('path holds a control character');
  // `%2e` is a dot to URL parsers: `/a/%2e%2e` climbs like `/a/..`
  if (value.split(SEPARATOR).some((s) => s.replace(/%2e/gi, '.') === '..'))
    throw new ResultError('path holds a .. segment');
  return value;
}

function queryOf(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ResultError('query must be an object of names to strings or arrays of strings');
  const params = new URLSearchParams();
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    const values: unknown[] = Array.isArray(v) ? v : [v];
    if (!values.every((one): one is string => typeof one === 'string'))
      throw new ResultError(`query.${name.slice(0, 100)} must be a string or an array of strings`);
    for (const one of values) params.append(name, one);
  }
  const text = params.toString();
  if (text.length > MAX_QUERY_CHARS)
    throw new ResultError(`query: at most ${MAX_QUERY_CHARS} characters as a query string`);
  return text;
}

/** the same parameters in another order, or `['x']` for `'x'`, are the same query */
function sameQuery(a: string, b: string): boolean {
  return a === b || sorted(a) === sorted(b);
}

function sorted(query: string): string {
  const params = new URLSearchParams(query);
  params.sort();
  return params.toString();
}

/**
 * A webhook target's URL with a transformation's address: the path appended to the URL's path
 * (one `/` between them), the query after the URL's own parameters. Scheme, host and port are
 * always the target's, so the SSRF guard judges the host it was configured with.
 */
export function addressedUrl(targetUrl: string, address: Address): string {
  if (address.path === undefined && !address.query) return targetUrl;
  const url = new URL(targetUrl);
  // `\`, `?` and `#` are characters of the path, not a separator, a query or a fragment
  if (address.path !== undefined)
    url.pathname = url.pathname.replace(/\/$/, '') + address.path.replace(/[\\?#]/g, (c) => encodeURIComponent(c));
  if (address.query) url.search = url.search.length > 1 ? `${url.search.slice(1)}&${address.query}` : address.query;
  return url.href;
}
