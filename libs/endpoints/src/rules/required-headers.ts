import { joinPath, schemaCheck } from './validation';
import { resultOf } from '@relay/contracts';
import type { FieldError, Validation } from '@relay/contracts';

/**
 * Spec "Authentication / Inbound" rule 2: headers every request must carry. Names match
 * case-insensitively; a configured value must match case-sensitively and untrimmed. Without
 * a value only the header's presence is required.
 */
export interface RequiredHeader {
  name: string;
  value?: string;
}

export const MAX_REQUIRED_HEADERS = 20;

/** RFC 9110 §5.6.2 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/**
 * Printable ASCII, spaces and tabs. Node reads header bytes as latin1, so a non-ASCII value
 * could not be compared reliably; CR/LF/NUL cannot occur in a header at all.
 */
const HEADER_VALUE = /^[\t\x20-\x7E]*$/;

const check = schemaCheck({
  type: 'array',
  maxItems: MAX_REQUIRED_HEADERS,
  items: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 256 },
      value: { type: 'string', minLength: 1, maxLength: 4096 },
    },
    required: ['name'],
    additionalProperties: false,
  },
});

/** Save-time validation; messages never echo a configured value (it is often a shared secret). */
export function validateRequiredHeaders(input: unknown, at = 'required_headers'): Validation<RequiredHeader[]> {
  const errors = check(input, at);
  if (errors.length > 0) return { ok: false, errors };
  const headers = input as RequiredHeader[];
  const seen = new Set<string>();
  headers.forEach((header, i) => {
    const field = joinPath(at, i);
    if (!HEADER_NAME.test(header.name)) {
      errors.push({
        field: `${field}.name`,
        message: "must be a valid HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only)",
      });
    } else if (seen.has(header.name.toLowerCase())) {
      errors.push({ field: `${field}.name`, message: 'is listed twice (header names are case-insensitive)' });
    }
    seen.add(header.name.toLowerCase());
    if (header.value !== undefined) errors.push(...valueErrors(header.value, `${field}.value`));
  });
  return resultOf(errors, () =>
    headers.map((h) => (h.value === undefined ? { name: h.name } : { name: h.name, value: h.value })),
  );
}

function valueErrors(value: string, field: string): FieldError[] {
  if (!HEADER_VALUE.test(value))
    return [{ field, message: 'must be printable ASCII (no line breaks or control characters)' }];
  // HTTP parsers strip leading/trailing whitespace from received values (RFC 9110 §5.5), so
  // such a value could never match what arrives.
  if (/^[ \t]|[ \t]$/.test(value))
    return [{ field, message: 'must not start or end with a space or tab (HTTP strips them in transit)' }];
  return [];
}
