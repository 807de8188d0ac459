import {
  HMAC_ALGORITHMS,
  HMAC_PRESETS,
  MAX_ACTIVE_SECRETS,
  MAX_DEDUP_WINDOW_SECONDS,
  SIGNATURE_ENCODINGS,
  TIMESTAMP_UNITS,
} from './types';
import type { InboundAuthType } from './types';

/**
 * JSON schemas of the stored setting, one per auth type: the type is dispatched in code first,
 * so a wrong field is reported against its own type instead of as a failed `oneOf`. Rules that
 * depend on the preset (secret formats, template variables) are checked in `validate.ts`.
 */

/** RFC 9110 §5.6.2 token: the only characters allowed in a header field name. */
export const HTTP_TOKEN_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";
/** A secret pasted with surrounding whitespace would never match what the sender sends. */
export const NO_EDGE_WHITESPACE_PATTERN = '^\\S(?:[\\s\\S]*\\S)?$';
/** Sent as a header value: visible ASCII, inner spaces allowed. */
export const HEADER_VALUE_PATTERN = '^[\\x21-\\x7E](?:[\\x20-\\x7E]*[\\x21-\\x7E])?$';
/** Bearer tokens follow `Bearer `, so they carry no spaces. */
export const BEARER_TOKEN_PATTERN = '^[\\x21-\\x7E]+$';
/** A dotted path of plain names (`data.id`), at most eight deep; linear to match. */
export const JSON_PATH_PATTERN = '^[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+){0,7}$';
/** RFC 7617: the user-id ends at the first colon. */
export const BASIC_USERNAME_PATTERN = '^[^:\\x00-\\x1F\\x7F]+$';

export const PATTERN_MESSAGES: Record<string, string> = {
  [HTTP_TOKEN_PATTERN]: "must be a valid HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only)",
  [NO_EDGE_WHITESPACE_PATTERN]: 'must not start or end with whitespace',
  [HEADER_VALUE_PATTERN]: 'must be printable ASCII without leading or trailing spaces (it is sent in a header)',
  [BEARER_TOKEN_PATTERN]: 'must be printable ASCII without spaces',
  [BASIC_USERNAME_PATTERN]: 'must not contain ":" or control characters',
  [JSON_PATH_PATTERN]: 'must be a dotted path of names, e.g. data.id (at most eight parts)',
};

const headerName = { type: 'string', minLength: 1, maxLength: 256, pattern: HTTP_TOKEN_PATTERN };

function secretList(item: object): object {
  return { type: 'array', minItems: 1, maxItems: MAX_ACTIVE_SECRETS, uniqueItems: true, items: item };
}

function objectSchema(properties: Record<string, object>, required: string[]): object {
  return { type: 'object', properties, required, additionalProperties: false };
}

const type = (name: InboundAuthType): object => ({ const: name });

const customHmac = objectSchema(
  {
    algorithm: { enum: [...HMAC_ALGORITHMS] },
    header: headerName,
    encoding: { enum: [...SIGNATURE_ENCODINGS] },
    prefix: { type: 'string', maxLength: 64 },
    template: { type: 'string', minLength: 1, maxLength: 1024 },
    timestamp_header: headerName,
    timestamp_unit: { enum: [...TIMESTAMP_UNITS] },
    id_header: headerName,
    id_json_path: { type: 'string', minLength: 1, maxLength: 128, pattern: JSON_PATH_PATTERN },
  },
  ['algorithm', 'header', 'encoding', 'template'],
);

export const INBOUND_AUTH_SCHEMAS: { readonly [T in InboundAuthType]: object } = {
  NONE: objectSchema({ type: type('NONE') }, ['type']),
  BASIC: objectSchema(
    {
      type: type('BASIC'),
      credentials: secretList(
        objectSchema(
          {
            username: { type: 'string', minLength: 1, maxLength: 256, pattern: BASIC_USERNAME_PATTERN },
            password: { type: 'string', minLength: 1, maxLength: 1024, pattern: NO_EDGE_WHITESPACE_PATTERN },
          },
          ['username', 'password'],
        ),
      ),
    },
    ['type', 'credentials'],
  ),
  BEARER: objectSchema(
    {
      type: type('BEARER'),
      tokens: secretList({ type: 'string', minLength: 1, maxLength: 4096, pattern: BEARER_TOKEN_PATTERN }),
    },
    ['type', 'tokens'],
  ),
  API_KEY: objectSchema(
    {
      type: type('API_KEY'),
      header: headerName,
      keys: secretList({ type: 'string', minLength: 1, maxLength: 4096, pattern: HEADER_VALUE_PATTERN }),
    },
    ['type', 'header', 'keys'],
  ),
  HMAC: objectSchema(
    {
      type: type('HMAC'),
      preset: { enum: [...HMAC_PRESETS, 'custom'] },
      secrets: secretList({ type: 'string', minLength: 1, maxLength: 1024, pattern: NO_EDGE_WHITESPACE_PATTERN }),
      tolerance_seconds: { type: 'integer', minimum: 1, maximum: 86400 },
      verify_token: { type: 'string', minLength: 1, maxLength: 256, pattern: BEARER_TOKEN_PATTERN },
      dedup: objectSchema(
        {
          enabled: { type: 'boolean' },
          window_seconds: { type: 'integer', minimum: 60, maximum: MAX_DEDUP_WINDOW_SECONDS },
        },
        [],
      ),
      custom: customHmac,
    },
    ['type', 'preset', 'secrets'],
  ),
};
