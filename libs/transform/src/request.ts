import type { DeliveryPayload, ForwardableRequest } from '@relay/contracts';
import { addressOf } from './address';
import type { Address } from './address';
import { ResultError } from './result-error';
import type { CallArgs } from './sandbox';

/** The request a transformation receives and returns (docs/transformations.md "The function"). */
export interface TransformRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  /** JSON value; form or query formats: an object; XML and text: a string; no body: null */
  body: unknown;
}

/** What a transformation knows about the event besides its request. */
export interface TransformContext {
  event_id: string;
  received_at: string;
  endpoint: { id: string; name: string };
  /** null in a preview, which runs the endpoint's transformation without a target */
  target: { id: string; name: string; kind: string } | null;
  /** the endpoint's HMAC preset (`github`, `stripe`, …); null without one */
  provider: string | null;
}

/** What a transformation works on of a delivery: the forwarded request and its payload bytes. */
export interface Carried {
  request: ForwardableRequest;
  payload: DeliveryPayload;
  /** the path and query a transformation changed (a webhook target sends to them beneath its URL) */
  address?: Address;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;
/** header names the sender's request may carry (RFC 9110 token) */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
export const MAX_RESULT_HEADERS = 100;

function pairsToObject(pairs: Iterable<[string, string]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of pairs) {
    const held = out[k];
    out[k] = held === undefined ? v : Array.isArray(held) ? [...held, v] : [held, v];
  }
  return out;
}

function objectToPairs(value: Record<string, unknown>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(value)) {
    for (const one of Array.isArray(v) ? v : [v]) out.append(k, typeof one === 'string' ? one : JSON.stringify(one));
  }
  return out;
}

/**
 * The body as the endpoint's payload format reads it. The gateway hands the query formats over
 * as JSON (their parameters, or the decoded Base64 JSON document), so the content type says it all.
 */
export function bodyOf(payload: DeliveryPayload): unknown {
  if (payload.content_type === null) return null;
  const text = textOf(payload);
  if (JSON_TYPE.test(payload.content_type)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  if (FORM_TYPE.test(payload.content_type)) return pairsToObject(new URLSearchParams(text));
  return text;
}

/** The transformation's `request` argument for one delivery. */
export function requestOf(carried: Carried, endpointId: string): TransformRequest {
  return { ...headOf(carried, endpointId), body: bodyOf(carried.payload) };
}

/**
 * The arguments of a transformation's call, `request` and `context`, as the sandbox takes them:
 * a payload read as text or JSON goes as its text, which the sandbox reads as bodyOf does. Text
 * holding a NUL character goes inside the JSON instead (the engine would end the text there).
 */
export function argsOf(carried: Carried, context: TransformContext): CallArgs {
  const { content_type } = carried.payload;
  const head = headOf(carried, context.endpoint.id);
  const text = content_type === null || FORM_TYPE.test(content_type) ? null : textOf(carried.payload);
  if (content_type === null || text === null || text.includes('\0'))
    return { json: JSON.stringify([{ ...head, body: bodyOf(carried.payload) }, context]) };
  return { json: JSON.stringify([head, context]), body: { text, json: JSON_TYPE.test(content_type) } };
}

const textOf = (payload: DeliveryPayload): string => Buffer.from(payload.body_base64, 'base64').toString('utf8');

const receivedPath = (endpointId: string): string => `/relay/${endpointId}`;

function headOf(carried: Carried, endpointId: string): Omit<TransformRequest, 'body'> {
  const { content_type } = carried.payload;
  return {
    method: carried.request.method,
    path: carried.address?.path ?? receivedPath(endpointId),
    query: pairsToObject(new URLSearchParams(carried.address?.query ?? carried.request.query)),
    headers: { ...carried.request.headers, ...(content_type === null ? {} : { 'content-type': content_type }) },
  };
}

/**
 * What a transformation returned, made into what is delivered. The body is sent as it is when
 * a string, as JSON (or a form, when the content type says so) otherwise; the `content-type`
 * header sets the payload's type. A path or query other than the received one is kept as the
 * address a webhook target sends to; the method is the sender's (docs/transformations.md "What a
 * result changes").
 */
export function carriedOf(result: unknown, original: Carried, endpointId: string): Carried {
  if (typeof result !== 'object' || result === null || Array.isArray(result))
    throw new ResultError('the result must be a request object or null');
  const r = result as Record<string, unknown>;
  const headers = headersOf(r.headers ?? original.request.headers);
  const { 'content-type': typeHeader, ...forwarded } = headers;
  const body = r.body;
  const payload = payloadOf(body, typeHeader ?? original.payload.content_type);
  const address = addressOf(r, original.address, {
    path: receivedPath(endpointId),
    query: original.request.query,
  });
  return { request: { ...original.request, headers: forwarded }, payload, ...(address ? { address } : {}) };
}

function headersOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ResultError('headers must be an object of header names to strings');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_RESULT_HEADERS) throw new ResultError(`headers: at most ${MAX_RESULT_HEADERS} headers`);
  const out: Record<string, string> = {};
  for (const [rawName, v] of entries) {
    const name = rawName.toLowerCase();
    if (!HEADER_NAME.test(name)) throw new ResultError(`headers: "${rawName.slice(0, 100)}" is not a header name`);
    if (typeof v !== 'string') throw new ResultError(`headers.${name} must be a string`);
    if (!HEADER_VALUE.test(v)) throw new ResultError(`headers.${name} holds a character a header cannot carry`);
    out[name] = v;
  }
  return out;
}

function payloadOf(body: unknown, contentType: string | null): DeliveryPayload {
  if (body === null || body === undefined) return { content_type: null, body_base64: '' };
  if (typeof body === 'string')
    return { content_type: contentType ?? 'text/plain; charset=utf-8', body_base64: b64(body) };
  if (contentType !== null && FORM_TYPE.test(contentType)) {
    if (typeof body !== 'object' || Array.isArray(body))
      throw new ResultError('body must be an object or a string for a form content type');
    return { content_type: contentType, body_base64: b64(objectToPairs(body as Record<string, unknown>).toString()) };
  }
  const type = contentType !== null && JSON_TYPE.test(contentType) ? contentType : 'application/json';
  return { content_type: type, body_base64: b64(JSON.stringify(body)) };
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
