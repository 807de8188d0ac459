import { ACCEPTED_MEDIA_TYPES, ENDPOINT_METHODS, isBodylessFormat, methodAllowedForFormat } from '@relay/endpoints';
import type { PayloadFormat } from '@relay/endpoints';
import type { FieldError, Validation } from '@relay/contracts';
import type { EndpointRecord } from '@relay/store';

/** The request a test runs, as the gateway's pipeline will read it (@relay/contracts TestRequestEnvelope). */
export interface TestRequestInput {
  method: string;
  /** lower-case names */
  headers: Record<string, string>;
  query: string;
  body: Buffer;
}

const MAX_HEADERS = 50;
const MAX_HEADER_VALUE = 4096;
const MAX_QUERY = 8192;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
// what a header value may hold on the wire (RFC 9110 §5.5): no CR, LF or NUL
const FIELD_VALUE = /^[^\r\n\0]*$/;
// set by the transport on a real request, never by the sender
const REFUSED_HEADERS = new Set(['content-length', 'transfer-encoding', 'host', 'connection', 'content-type']);
const KNOWN_FIELDS = new Set(['method', 'headers', 'query', 'content_type', 'body', 'body_base64']);

export const SAMPLE_MESSAGE = 'Test request from Relay';

/**
 * The sample a test sends when the body names no payload: one that the format reads (spec
 * "Payload format rules"), so an endpoint without content rules accepts it as it is.
 */
function sample(endpoint: EndpointRecord, now: Date): { body: string; query: string; contentType: string | null } {
  const doc = { test: true, message: SAMPLE_MESSAGE, sent_at: now.toISOString() };
  switch (endpoint.payload_format) {
    case 'json':
      return { body: JSON.stringify(doc), query: '', contentType: 'application/json' };
    case 'form':
      return {
        body: new URLSearchParams({ test: 'true', message: SAMPLE_MESSAGE }).toString(),
        query: '',
        contentType: 'application/x-www-form-urlencoded',
      };
    case 'xml':
      return { body: `<test><message>${SAMPLE_MESSAGE}</message></test>`, query: '', contentType: 'application/xml' };
    case 'text':
      return { body: SAMPLE_MESSAGE, query: '', contentType: 'text/plain' };
    case 'query':
      return {
        body: '',
        query: new URLSearchParams({ test: 'true', message: SAMPLE_MESSAGE }).toString(),
        contentType: null,
      };
    case 'query_base64_json':
      return {
        body: '',
        query: `${encodeURIComponent(endpoint.query_param_name ?? 'payload')}=${Buffer.from(JSON.stringify(doc)).toString('base64url')}`,
        contentType: null,
      };
    default:
      return { body: '', query: '', contentType: null };
  }
}

/** The Content-Type a body of this format is sent with when the test names none. */
function defaultContentType(format: PayloadFormat): string | null {
  return isBodylessFormat(format) ? null : ACCEPTED_MEDIA_TYPES[format][0]!;
}

/**
 * Reads the optional body of POST /v1/endpoints/:id/test (docs/management-api.md "Test
 * requests"): `method`, `headers`, `query`, `content_type`, and `body` (a string is sent as its
 * UTF-8 bytes, any other JSON value as JSON text) or `body_base64`. What is left out comes from
 * the endpoint: its first allowed method (POST when it has it) and a sample payload of its
 * format. Only the shape is checked here; the payload rules are the gateway's, applied as to a
 * sender's request.
 */
export function parseTestRequest(input: unknown, endpoint: EndpointRecord, now: Date): Validation<TestRequestInput> {
  const errors: FieldError[] = [];
  const b = (input ?? {}) as Record<string, unknown>;
  if (typeof b !== 'object' || Array.isArray(b))
    return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] };
  for (const k of Object.keys(b)) if (!KNOWN_FIELDS.has(k)) errors.push({ field: k, message: 'is not a known field' });

  const allowed = endpoint.methods.filter((m) => methodAllowedForFormat(m, endpoint.payload_format));
  let method = allowed.includes('POST') ? 'POST' : (allowed[0] ?? 'POST');
  if (b.method !== undefined) {
    if (typeof b.method !== 'string' || !(ENDPOINT_METHODS as readonly string[]).includes(b.method.toUpperCase()))
      errors.push({ field: 'method', message: `must be one of ${ENDPOINT_METHODS.join(', ')}` });
    else method = b.method.toUpperCase();
  }

  const headers: Record<string, string> = {};
  if (b.headers !== undefined) {
    if (typeof b.headers !== 'object' || b.headers === null || Array.isArray(b.headers))
      errors.push({ field: 'headers', message: 'must be an object of header names to string values' });
    else {
      const entries = Object.entries(b.headers as Record<string, unknown>);
      if (entries.length > MAX_HEADERS) errors.push({ field: 'headers', message: `at most ${MAX_HEADERS} headers` });
      for (const [name, value] of entries) {
        const lower = name.toLowerCase();
        if (!TOKEN.test(name)) errors.push({ field: `headers.${name}`, message: 'is not a valid header name' });
        else if (REFUSED_HEADERS.has(lower))
          errors.push({
            field: `headers.${name}`,
            message:
              lower === 'content-type' ? 'set it with content_type' : 'is set by the transport, not by a request',
          });
        else if (typeof value !== 'string' || value.length > MAX_HEADER_VALUE || !FIELD_VALUE.test(value))
          errors.push({
            field: `headers.${name}`,
            message: `must be a string of at most ${MAX_HEADER_VALUE} characters without CR, LF or NUL`,
          });
        else headers[lower] = value;
      }
    }
  }

  let query: string | undefined;
  if (b.query !== undefined) {
    if (typeof b.query !== 'string' || b.query.length > MAX_QUERY || /[\s#\0]/.test(b.query))
      errors.push({
        field: 'query',
        message: `must be a query string without "?", at most ${MAX_QUERY} characters, no white space or "#"`,
      });
    else query = b.query.replace(/^\?/, '');
  }

  if (b.body !== undefined && b.body_base64 !== undefined)
    errors.push({ field: 'body_base64', message: 'give either body or body_base64' });
  let body: Buffer | undefined;
  if (b.body_base64 !== undefined) {
    if (typeof b.body_base64 !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(b.body_base64))
      errors.push({ field: 'body_base64', message: 'must be base64' });
    else body = Buffer.from(b.body_base64, 'base64');
  } else if (b.body !== undefined && b.body !== null) {
    body = Buffer.from(typeof b.body === 'string' ? b.body : JSON.stringify(b.body), 'utf8');
  }

  let contentType: string | null | undefined;
  if (b.content_type !== undefined) {
    if (
      b.content_type !== null &&
      (typeof b.content_type !== 'string' || b.content_type.length > 256 || !FIELD_VALUE.test(b.content_type))
    )
      errors.push({ field: 'content_type', message: 'must be a media type of at most 256 characters, or null' });
    else contentType = b.content_type as string | null;
  }
  if (errors.length) return { ok: false, errors };

  const fallback = sample(endpoint, now);
  const named = body !== undefined || query !== undefined;
  const type =
    contentType !== undefined
      ? contentType
      : named
        ? body !== undefined
          ? defaultContentType(endpoint.payload_format)
          : null
        : fallback.contentType;
  if (type !== null) headers['content-type'] = type;
  return {
    ok: true,
    value: {
      method,
      headers,
      query: query ?? (named ? '' : fallback.query),
      body: body ?? (named ? Buffer.alloc(0) : Buffer.from(fallback.body)),
    },
  };
}
