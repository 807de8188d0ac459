import { MAX_CUSTOM_HEADERS, MAX_FORWARD_NAMES, MAX_HEADER_NAME, MAX_HEADER_VALUE } from './config';
import type { ForwardHeaders } from './config';
import { headerValueProblem, isCredentialLike, isHeaderName, isNeverForwarded, reservedReason } from './headers';
import { TEMPLATE_VARIABLES, unknownVariables } from './template';

export type Fail = (field: string, message: string) => void;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a configured header name; returns it lower-cased, or null after reporting. */
export function headerName(raw: unknown, field: string, fail: Fail): string | null {
  if (typeof raw !== 'string' || raw === '') return fail(field, 'header name is required'), null;
  if (raw.length > MAX_HEADER_NAME || !isHeaderName(raw)) return fail(field, `"${raw.slice(0, 40)}" is not a valid header name`), null;
  return raw.toLowerCase();
}

/** A plain (unsealed) custom header, validated. */
export interface PlainCustomHeader {
  name: string;
  value: string;
  sensitive: boolean;
}

/**
 * Custom headers (spec "Relay target": at most 25; name, value, template variables; a
 * credential-like header is sensitive). `authHeader` is the lower-cased outbound auth header
 * name, refused as a custom name by header rule 3.
 */
export function customHeaders(raw: unknown, authHeader: string | null, signing: boolean, fail: Fail): PlainCustomHeader[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) return fail('custom_headers', 'must be a list of {name, value}'), [];
  if (raw.length > MAX_CUSTOM_HEADERS) fail('custom_headers', `at most ${MAX_CUSTOM_HEADERS} custom headers are allowed (got ${raw.length})`);
  const seen = new Set<string>();
  const out: PlainCustomHeader[] = [];
  raw.slice(0, MAX_CUSTOM_HEADERS).forEach((h: unknown, i) => {
    const at = `custom_headers[${i}]`;
    if (!isObject(h)) return fail(at, 'must be an object {name, value, sensitive?}');
    const name = headerName(h.name, `${at}.name`, fail);
    if (name !== null) {
      const reserved = reservedReason(name, signing);
      if (reserved) fail(`${at}.name`, reserved);
      else if (name === authHeader) fail(`${at}.name`, `${name} is the outbound authentication header and cannot also be a custom header (header rule 3)`);
      else if (seen.has(name)) fail(`${at}.name`, `duplicate custom header ${name}`);
      seen.add(name);
    }
    const value = h.value;
    if (typeof value !== 'string') return fail(`${at}.value`, 'header value must be a string');
    if (value.length > MAX_HEADER_VALUE) fail(`${at}.value`, `header value is longer than ${MAX_HEADER_VALUE} characters`);
    const problem = headerValueProblem(value);
    if (problem) fail(`${at}.value`, `header value ${problem}`);
    const unknown = unknownVariables(value);
    if (unknown.length) fail(`${at}.value`, `unknown template variable(s) ${unknown.map((u) => `{{${u}}}`).join(', ')}; known: ${TEMPLATE_VARIABLES.join(', ')}`);
    if (h.sensitive !== undefined && typeof h.sensitive !== 'boolean') fail(`${at}.sensitive`, 'must be true or false');
    const extra = Object.keys(h).filter((k) => !['name', 'value', 'sensitive'].includes(k));
    if (extra.length) fail(`${at}.${extra[0]}`, 'unknown setting');
    // a credential-like header is always sensitive; `sensitive: false` cannot unmark it
    out.push({ name: typeof h.name === 'string' ? h.name : '', value, sensitive: h.sensitive === true || isCredentialLike(name ?? '', value) });
  });
  return out;
}

/** Header forwarding (spec "Relay target"): all permitted incoming headers, a named list, or none (the default). */
export function forwardHeaders(raw: unknown, fail: Fail): ForwardHeaders {
  if (raw === undefined) return { mode: 'none' };
  if (!isObject(raw)) return fail('forward_headers', 'must be {mode: "all"} | {mode: "list", names: [...]} | {mode: "none"}'), { mode: 'none' };
  if (raw.mode === 'all' || raw.mode === 'none') return { mode: raw.mode };
  if (raw.mode !== 'list') return fail('forward_headers.mode', 'must be "all", "list" or "none"'), { mode: 'none' };
  if (!Array.isArray(raw.names)) return fail('forward_headers.names', 'must be a list of header names'), { mode: 'none' };
  if (raw.names.length > MAX_FORWARD_NAMES) fail('forward_headers.names', `at most ${MAX_FORWARD_NAMES} names`);
  const names = new Set<string>();
  raw.names.forEach((n: unknown, i) => {
    const field = `forward_headers.names[${i}]`;
    const name = headerName(n, field, fail);
    if (name === null) return;
    if (isNeverForwarded(name)) fail(field, `${name} is never forwarded (header rule 4 and Relay's hop headers, docs/targets-webhook.md)`);
    names.add(name);
  });
  return { mode: 'list', names: [...names] };
}
