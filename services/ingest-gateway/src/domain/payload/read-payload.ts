import { MAX_CONTENT_TYPE_LENGTH } from '@relay/contracts';
import { ACCEPTED_MEDIA_TYPES, MAX_QUERY_PARAM_PAIRS } from '@relay/endpoints';
import type { BodyFormat, PayloadFormat } from '@relay/endpoints';
import { rejection } from '../rules/rejection';
import type { Rejection } from '../rules/rejection';
import { decodeBase64 } from './base64';
import { MAX_JSON_DEPTH, parseJsonBytes } from './json-text';
import { isMultipart, mediaTypeOf } from './media-type';
import { countQueryPairs, parseQueryObject, rawParamValue } from './query';
import { parseXml } from './xml';

export interface PayloadRequest {
  method: string;
  contentType: string | undefined;
  rawBody: Buffer;
  /** the URL's query string without the leading `?`, exactly as received */
  rawQuery: string;
}

export interface ReadPayloadSettings {
  /** the endpoint's query parameter name; required for the Base64 JSON format */
  base64ParamName?: string;
  base64ParamRequired: boolean;
  limits: { payloadBytes: number };
}

export interface Payload {
  /** parsed value; `undefined` for an empty payload (None, or an absent optional Base64 parameter) */
  data: unknown;
  /** the exact bytes and Content-Type a webhook target receives */
  forward: { content_type: string | null; body: Buffer };
}

export type PayloadRejection = Rejection & { status: 400 | 413 | 415 };
export type PayloadResult = { ok: true; payload: Payload } | PayloadRejection;

/**
 * Most fields of a form body (PHP's `max_input_vars` default). The spec's 64-pair limit is for
 * query strings; a form body may carry more, but parsing 100,000 fields of a 1 MB body took
 * 260 ms of CPU, which one request must not cost.
 */
export const MAX_FORM_FIELDS = 1000;

const EMPTY: Payload = { data: undefined, forward: { content_type: null, body: Buffer.alloc(0) } };

/**
 * Spec "Payload format rules": reads the payload of one request according to the endpoint's
 * payload format. docs/payload-formats.md describes each format and what targets receive.
 */
export function readPayload(
  format: PayloadFormat,
  request: PayloadRequest,
  settings: ReadPayloadSettings,
): PayloadResult {
  switch (format) {
    // None: body ignored for any content type; the payload is empty.
    case 'none':
      return accept(EMPTY);
    case 'query':
      return readQuery(request.rawQuery, settings);
    case 'query_base64_json':
      return readBase64Json(request.rawQuery, settings);
    case 'json':
    case 'form':
    case 'xml':
    case 'text':
      return readBody(format, request, settings);
  }
}

function accept(payload: Payload): PayloadResult {
  return { ok: true, payload };
}

function tooLarge(what: string, limit: number): PayloadRejection {
  return rejection(413, 'PAYLOAD_TOO_LARGE', `The ${what} is larger than the plan payload limit of ${limit} bytes.`);
}

function malformedQuery(message: string): PayloadRejection {
  return rejection(400, 'MALFORMED_QUERY_PARAM', message);
}

function malformedPayload(message: string): PayloadRejection {
  return rejection(400, 'MALFORMED_PAYLOAD', message);
}

function unsupportedMediaType(message: string): PayloadRejection {
  return rejection(415, 'UNSUPPORTED_MEDIA_TYPE', message);
}

/**
 * Both query formats: the query string is the payload, so its size and pair count are limited.
 * The size bound also covers spec 413's "Base64 JSON" case: decoded Base64 is always shorter
 * than the query string that carries it.
 */
function checkQuery(rawQuery: string, limit: number): PayloadRejection | null {
  if (Buffer.byteLength(rawQuery) > limit) return tooLarge('query string', limit);
  if (countQueryPairs(rawQuery) > MAX_QUERY_PARAM_PAIRS)
    return malformedQuery(`The query string has more than ${MAX_QUERY_PARAM_PAIRS} parameters.`);
  return null;
}

function jsonForward(data: unknown): Payload['forward'] {
  return { content_type: 'application/json', body: Buffer.from(JSON.stringify(data)) };
}

function readQuery(rawQuery: string, settings: ReadPayloadSettings): PayloadResult {
  const problem = checkQuery(rawQuery, settings.limits.payloadBytes);
  if (problem) return problem;
  const data = parseQueryObject(rawQuery);
  return accept({ data, forward: jsonForward(data) });
}

function readBase64Json(rawQuery: string, settings: ReadPayloadSettings): PayloadResult {
  const name = settings.base64ParamName;
  // Save-time validation requires the name; its absence is a broken endpoint record, not a sender error.
  if (name === undefined || name === '') throw new Error('Base64 JSON endpoint has no query parameter name');
  const limit = settings.limits.payloadBytes;
  const problem = checkQuery(rawQuery, limit);
  if (problem) return problem;
  const value = rawParamValue(rawQuery, name);
  if (value === undefined) {
    return settings.base64ParamRequired
      ? malformedQuery(`The required query parameter ${name} is missing.`)
      : accept(EMPTY);
  }
  const bytes = decodeBase64(value);
  if (bytes === null) return malformedQuery(`The query parameter ${name} is not valid Base64.`);
  const parsed = parseJsonBytes(bytes);
  if (!parsed.ok && parsed.problem === 'too_deep')
    return malformedQuery(`The JSON in query parameter ${name} is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  if (!parsed.ok) return malformedQuery(`The query parameter ${name} does not hold Base64-encoded JSON.`);
  // "The decoded JSON is passed to all targets unchanged": the decoded bytes, not a re-serialisation.
  return accept({ data: parsed.value, forward: { content_type: 'application/json', body: bytes } });
}

function readBody(format: BodyFormat, request: PayloadRequest, settings: ReadPayloadSettings): PayloadResult {
  // Body formats forward the Content-Type to targets; a delivery carries at most this much of it.
  if ((request.contentType?.length ?? 0) > MAX_CONTENT_TYPE_LENGTH) {
    return rejection(
      400,
      'MALFORMED_HEADER',
      `The Content-Type header is longer than ${MAX_CONTENT_TYPE_LENGTH} characters.`,
    );
  }
  const mediaType = mediaTypeOf(request.contentType);
  if (isMultipart(mediaType)) {
    return unsupportedMediaType(
      'File uploads and multipart bodies are not accepted. Send the metadata, or a URL of the file, instead.',
    );
  }
  const accepted = ACCEPTED_MEDIA_TYPES[format];
  if (mediaType === null || !accepted.includes(mediaType))
    return unsupportedMediaType(`This endpoint accepts Content-Type ${accepted.join(' or ')}.`);
  const limit = settings.limits.payloadBytes;
  if (request.rawBody.length > limit) return tooLarge('body', limit);
  const parsed = parseBody(format, request.rawBody);
  if ('message' in parsed) return malformedPayload(parsed.message);
  return accept({ data: parsed.data, forward: bodyForward(format, parsed.data, request) });
}

/**
 * Spec "Events": "the delivery body is the parsed payload". A form body parses to a flat object
 * of name/value pairs, like the Query Parameters formats, and is delivered the same way: as
 * that object's JSON. JSON, XML and text payloads are documents whose own serialisation is
 * the body as sent, so targets get the original bytes with the original Content-Type
 * (docs/payload-formats.md "What a target receives").
 */
function bodyForward(format: BodyFormat, data: unknown, request: PayloadRequest): Payload['forward'] {
  if (format === 'form') return jsonForward(data);
  return { content_type: request.contentType ?? null, body: request.rawBody };
}

function parseBody(format: BodyFormat, body: Buffer): { data: unknown } | { message: string } {
  switch (format) {
    case 'json': {
      const parsed = parseJsonBytes(body);
      if (parsed.ok) return { data: parsed.value };
      return {
        message:
          parsed.problem === 'too_deep'
            ? `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`
            : 'The body is not valid JSON.',
      };
    }
    case 'form': {
      const text = body.toString('utf8');
      // counted before parsing: the fields become one JSON object for every target
      if (countQueryPairs(text) > MAX_FORM_FIELDS)
        return { message: `The form body has more than ${MAX_FORM_FIELDS} fields.` };
      return { data: parseQueryObject(text) };
    }
    case 'xml': {
      const text = utf8Text(body);
      if (text === undefined) return { message: 'The XML body is not valid UTF-8.' };
      const xml = parseXml(text);
      return xml.ok ? { data: xml.data } : { message: xml.message };
    }
    case 'text':
      return { data: body.toString('utf8') };
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function utf8Text(body: Buffer): string | undefined {
  try {
    return strictUtf8.decode(body);
  } catch {
    return undefined;
  }
}
