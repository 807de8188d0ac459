import type { DeliveryPayload } from '@relay/contracts';
import { classifyFailureCode } from '../http/failures';
import { PayloadError } from '../kind';
import type { AttemptResult } from '../kind';

/*
 * What both chat target kinds share: reading the delivered payload bytes, the message
 * template engine (spec "Relay target": "optional message template"), and cutting text to a
 * platform limit. Kept free of any platform rule; those live in each kind's folder.
 */

/** The delivered payload as a chat message sees it. */
export type ChatPayload =
  | { kind: 'empty' }
  /** JSON and the query formats (the gateway hands those over as JSON) */
  | { kind: 'json'; value: unknown }
  /** text, XML, form, or a body labelled JSON that does not parse */
  | { kind: 'text'; text: string; form: boolean };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/**
 * Deepest JSON nesting a chat message is built from. Chat payloads are shallow (Discord embeds,
 * Slack blocks: under ten levels); JSON.stringify recurses and throws RangeError somewhere past
 * a few thousand levels, so a payload must be refused well before that, with a reason.
 */
export const MAX_PAYLOAD_DEPTH = 256;

/**
 * Throws PayloadError for a JSON payload nested deeper than MAX_PAYLOAD_DEPTH (item 4:
 * one 10⁵-deep payload made every attempt throw RangeError, was redelivered 21 times and
 * dead-lettered with no attempt recorded). JSON.parse does not recurse, so the parsed value is
 * walked here, iteratively, before anything serialises it.
 */
export function readPayload(p: DeliveryPayload): ChatPayload {
  const bytes = Buffer.from(p.body_base64, 'base64');
  if (bytes.length === 0) return { kind: 'empty' };
  const text = bytes.toString('utf8');
  const type = p.content_type ?? '';
  if (JSON_TYPE.test(type)) {
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      // Not expected (the gateway validated it), but a chat message should still go out.
      return { kind: 'text', text, form: false };
    }
    if (exceedsDepth(value, MAX_PAYLOAD_DEPTH)) {
      throw new PayloadError(
        'PAYLOAD_TOO_DEEP',
        `the JSON payload is nested deeper than ${MAX_PAYLOAD_DEPTH} levels; no chat message can be built from it`,
      );
    }
    return { kind: 'json', value };
  }
  return { kind: 'text', text, form: FORM_TYPE.test(type) };
}

/** Whether objects/arrays nest deeper than `max` (a scalar is depth 0), without recursion. */
export function exceedsDepth(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** A JSON object (not an array) whose own keys a chat kind inspects for native passthrough. */
export function asObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/**
 * The value `{{…}}` paths are resolved against: the parsed JSON; for a form body the fields
 * (a repeated name becomes an array, like the Query Parameters format); otherwise the text,
 * reachable as `{{.}}`.
 */
export function templateData(payload: ChatPayload): unknown {
  if (payload.kind === 'json') return payload.value;
  if (payload.kind === 'empty') return {};
  if (!payload.form) return payload.text;
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(payload.text)) {
    const seen = fields[name];
    fields[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return fields;
}

export const MAX_TEMPLATE_LENGTH = 10_000;

const TAG = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * Mustache-like substitution only: `{{path.to.field}}` (array items by index, `{{.}}` = the
 * whole payload). No sections, helpers or expressions, so a template can never run code.
 * Missing values and null render as ''; objects and arrays as compact JSON. `escape` is
 * applied to substituted values only, never to the template's own text, so an operator can
 * write platform markup while relayed values stay inert.
 */
export function renderTemplate(template: string, data: unknown, escape: (s: string) => string = (s) => s): string {
  return template.replace(TAG, (_tag, path: string) => escape(stringify(lookup(data, path))));
}

/** The value at a dotted path (as in templates) as text, objects as compact JSON; undefined when missing or null. */
export function pathText(data: unknown, path: string): string | undefined {
  const value = lookup(data, path);
  return value === undefined || value === null ? undefined : stringify(value);
}

function lookup(data: unknown, path: string): unknown {
  if (path === '.') return data;
  if (path === '') return undefined;
  let current = data;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    // Own properties only: `{{constructor}}` or `{{__proto__}}` must not reach prototypes.
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Cuts `text` to at most `max` UTF-16 code units, ending with `marker`. Platforms count
 * characters in ways that are never larger than code units, so this is the safe measure; a
 * surrogate pair is never split.
 */
export function truncateText(text: string, max: number, marker = '…'): string {
  if (text.length <= max) return text;
  if (max <= marker.length) return cut(text, max);
  return cut(text, max - marker.length) + marker;
}

function cut(text: string, end: number): string {
  if (end <= 0) return '';
  const last = text.charCodeAt(end - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? end - 1 : end);
}

export interface CodeBlockOptions {
  /** appended inside the block where the JSON was cut */
  marker: string;
  /** the fence's language hint (Discord highlights `json`; Slack would print it) */
  language?: string;
  /** the platform's text escaping; runs before cutting, so the result still fits */
  escape?: (s: string) => string;
}

/**
 * JSON pretty-printed inside a fenced code block that fits `max`. Backticks only occur inside
 * JSON strings, where `\u0060` is the same value, so a payload can never close the fence.
 */
export function jsonCodeBlock(value: unknown, max: number, opts: CodeBlockOptions): string {
  const json = (JSON.stringify(value, null, 2) ?? 'null').replace(/`/g, '\\u0060');
  const text = opts.escape ? opts.escape(json) : json;
  const open = `\`\`\`${opts.language ?? ''}\n`;
  const close = '\n```';
  return open + truncateText(text, max - open.length - close.length, opts.marker) + close;
}

/** An attempt's error text: short, single-line, and never carrying a URL (webhook URLs hold tokens). */
export function safeErrorText(text: string, max = 160): string {
  return truncateText(
    text
      .replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>')
      .replace(/\s+/g, ' ')
      .trim(),
    max,
  );
}

/** `Retry-After` (seconds; Discord sends fractions) in ms, rounded up; undefined when absent or unreadable. */
export function retryAfterHeaderMs(
  headers: Record<string, string | string[] | undefined>,
  name = 'retry-after',
): number | undefined {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : undefined;
}

/**
 * A failed send as a chat attempt: a 2xx whose body ran past the sender's limit and a request
 * Node refuses to send are permanent (the same message would fail the same way); so are the
 * SSRF guard's refusal and an untrusted certificate, which also flag the target, as for
 * webhooks; every other network failure (an expired certificate among them) retries. The text
 * is the code only, so it cannot carry the webhook URL.
 */
export function chatNetworkFailure(code: string): AttemptResult {
  const error = `network error (${safeErrorText(code, 40)})`;
  switch (classifyFailureCode(code)) {
    case 'response_too_large':
      return {
        result: 'permanent',
        status: null,
        error: 'response too large: a 2xx answer whose body ran past the limit; reading stopped',
        flagTarget: false,
      };
    case 'unsendable':
      return { result: 'permanent', status: null, error, flagTarget: false };
    // the same URL resolves to the same refused address, and an untrusted certificate stays
    // untrusted (spec "Outbound"): waiting cannot fix either, so the target is flagged
    case 'ssrf_blocked':
    case 'untrusted_certificate':
      return { result: 'permanent', status: null, error, flagTarget: true };
    default:
      return { result: 'retry', status: null, error };
  }
}
