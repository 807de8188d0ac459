import {
  BODY_FILTER_KINDS,
  CAPTCHA_PROVIDERS,
  ENDPOINT_METHODS,
  FIELD_TYPES,
  HMAC_ALGORITHMS,
  HMAC_PRESETS,
  MAX_ACTIVE_SECRETS,
  MAX_BODY_FILTERS,
  MAX_DEDUP_WINDOW_SECONDS,
  MAX_FIELD_RULES,
  MAX_IP_LIST_ENTRIES,
  MAX_MAINTENANCE_WINDOWS,
  MAX_QUERY_PARAM_NAME_LENGTH,
  MAX_RATE_LIMIT_PER_MINUTE,
  MAX_REQUIRED_HEADERS,
  PATTERN_FILTER_KINDS,
  PAYLOAD_FORMATS,
  SIGNATURE_ENCODINGS,
  TEXT_FILTER_KINDS,
  TIMESTAMP_UNITS,
} from '@relay/endpoints';
import { bool, dateTime, int, list, nameField, nullable, object, oneOfValues, ref, str } from './kit';
import type { Schema } from './kit';

/*
 * The endpoint object and its settings (docs/management-api.md "Settings"). Requests and
 * responses differ where secrets are: a request sends a secret, or `{ "keep": <slot> }` for a
 * stored one; a response shows `{ "set": true, "last4"? }`. Rules that need parsing (CIDR
 * ranges, RE2 patterns, date-times, settings that exclude each other) are checked by the
 * settings validators of @relay/endpoints after the document's, and reported with them.
 */

const keep = object(
  { keep: int({ minimum: 0, description: 'the slot of a stored secret, as the response lists it' }) },
  ['keep'],
  { description: 'Keeps a stored secret (docs/management-api.md "Keeping a stored secret").' },
);
const secretIn = { oneOf: [str({ minLength: 1 }), ref('KeepSecret')] };
const secretsIn = list(secretIn, {
  minItems: 1,
  maxItems: MAX_ACTIVE_SECRETS,
  description: 'the current secret, and the one being rotated to',
});
const redacted = object(
  {
    set: { const: true },
    last4: str({
      description:
        'the last four characters of tokens, keys and HMAC secrets of 16 or more characters; never shown to viewer keys',
    }),
  },
  ['set'],
  { description: 'A stored secret: never its value.' },
);
const secretsOut = list(ref('RedactedSecret'), { minItems: 1, maxItems: MAX_ACTIVE_SECRETS });

const customHmac = object(
  {
    algorithm: oneOfValues(HMAC_ALGORITHMS),
    header: str({ minLength: 1, maxLength: 256 }),
    encoding: oneOfValues(SIGNATURE_ENCODINGS),
    prefix: str({ maxLength: 64 }),
    template: str({
      minLength: 1,
      maxLength: 1024,
      description: 'what is signed, e.g. `{{timestamp}}.{{body}}`; must include `{{body}}`',
    }),
    timestamp_header: str({ minLength: 1, maxLength: 256 }),
    timestamp_unit: oneOfValues(TIMESTAMP_UNITS),
    id_header: str({ minLength: 1, maxLength: 256 }),
    id_json_path: str({
      minLength: 1,
      maxLength: 128,
      description: 'where the delivery id is in a JSON body, e.g. `data.id` (dedup)',
    }),
  },
  ['algorithm', 'header', 'encoding', 'template'],
  { description: 'docs/inbound-auth.md "Custom HMAC"' },
);

/** One schema per inbound auth type, chosen by `type`; `secret` is the form of one secret. */
function inboundAuth(secrets: Schema, secret: Schema, prefix: string): Record<string, Schema> {
  const t = (name: string): Schema => ({ type: 'string', const: name });
  return {
    [`${prefix}None`]: object({ type: t('NONE') }, ['type']),
    [`${prefix}Basic`]: object(
      {
        type: t('BASIC'),
        credentials: list(
          object({ username: str({ minLength: 1, maxLength: 256 }), password: secret }, ['username', 'password']),
          { minItems: 1, maxItems: MAX_ACTIVE_SECRETS },
        ),
      },
      ['type', 'credentials'],
    ),
    [`${prefix}Bearer`]: object({ type: t('BEARER'), tokens: secrets }, ['type', 'tokens']),
    [`${prefix}ApiKey`]: object({ type: t('API_KEY'), header: str({ minLength: 1, maxLength: 256 }), keys: secrets }, [
      'type',
      'header',
      'keys',
    ]),
    [`${prefix}Hmac`]: object(
      {
        type: t('HMAC'),
        preset: oneOfValues([...HMAC_PRESETS, 'custom'], 'docs/inbound-auth.md lists each preset'),
        secrets,
        tolerance_seconds: int({ minimum: 1, maximum: 86400 }),
        // a secret: redacted in views; sent in full on every write that includes inbound_auth
        verify_token: prefix.endsWith('Input')
          ? str({
              minLength: 1,
              maxLength: 256,
              description: "Meta presets: the hub.verify_token of Meta's subscription handshake",
            })
          : secret,
        dedup: object(
          { enabled: bool(), window_seconds: int({ minimum: 60, maximum: MAX_DEDUP_WINDOW_SECONDS }) },
          [],
          {
            description:
              'deduplication on the provider\'s delivery id (docs/ingest.md "Provider delivery ids"); on by default for presets with an id',
          },
        ),
        custom: ref('CustomHmac'),
      },
      ['type', 'preset', 'secrets'],
    ),
  };
}

const authChoice = (prefix: string, description: string): Schema => ({
  oneOf: ['None', 'Basic', 'Bearer', 'ApiKey', 'Hmac'].map((t) => ref(`${prefix}${t}`)),
  // each choice's `type` is a const, so the validator checks only the one a request names
  discriminator: { propertyName: 'type' },
  description,
});

const requiredHeader = object(
  { name: str({ minLength: 1 }), value: str({ description: 'without a value only the header must be present' }) },
  ['name'],
);
const bodyFilter = {
  oneOf: [
    object({ kind: oneOfValues(TEXT_FILTER_KINDS), value: str({ minLength: 1 }), case_insensitive: bool() }, [
      'kind',
      'value',
    ]),
    object(
      {
        kind: oneOfValues(PATTERN_FILTER_KINDS),
        pattern: str({ minLength: 1, description: 'an RE2 pattern' }),
        case_insensitive: bool(),
      },
      ['kind', 'pattern'],
    ),
  ],
  description: `\`kind\`: ${BODY_FILTER_KINDS.join(', ')}`,
};
const fieldRule = object(
  {
    path: str({ minLength: 1, description: 'a dotted path into the payload, e.g. `order.id`' }),
    type: oneOfValues(FIELD_TYPES),
    required: bool(),
    pattern: str({ description: 'an RE2 pattern' }),
  },
  ['path'],
);
const window = object(
  {
    starts_at: str({ description: 'ISO 8601 date-time with a zone' }),
    ends_at: str({ description: 'after starts_at' }),
  },
  ['starts_at', 'ends_at'],
);
const ipList = list(str({ description: 'an IPv4 or IPv6 address or CIDR range' }), { maxItems: MAX_IP_LIST_ENTRIES });

/** The settings a create or a PATCH may send, each optional here (`name` is required on create). */
const settingsIn: Record<string, Schema> = {
  name: nameField(200, 'trimmed'),
  methods: list(str(), {
    minItems: 1,
    description: `${ENDPOINT_METHODS.join(', ')}; case-insensitive, stored once each in that order`,
  }),
  payload_format: oneOfValues(PAYLOAD_FORMATS),
  query_param_name: nullable(
    str({
      maxLength: MAX_QUERY_PARAM_NAME_LENGTH,
      description: 'Base64 JSON only: the query parameter holding the payload',
    }),
  ),
  query_param_required: bool({ description: 'Base64 JSON only' }),
  inbound_auth: ref('InboundAuthInput'),
  required_headers: list(requiredHeader, { maxItems: MAX_REQUIRED_HEADERS }),
  body_filters: list(bodyFilter, { maxItems: MAX_BODY_FILTERS }),
  field_rules: list(fieldRule, { maxItems: MAX_FIELD_RULES }),
  contracts: nullable(ref('PayloadContracts')),
  ip_access: object({ allow: ipList, deny: ipList }, [], { description: 'a list left out is empty; deny wins' }),
  captcha: nullable(
    object({ provider: oneOfValues(CAPTCHA_PROVIDERS), secret: secretIn, verify_url: str(), field: str() }, [
      'provider',
      'secret',
    ]),
  ),
  rate_limit_per_minute: nullable(
    int({ minimum: 1, maximum: MAX_RATE_LIMIT_PER_MINUTE, description: 'null: the default, 600' }),
  ),
  enabled: bool(),
  paused: bool({ description: 'the manual pause' }),
  maintenance_windows: list(window, { maxItems: MAX_MAINTENANCE_WINDOWS }),
};

/** Response fields a client may send back by mistake (GET → edit → PATCH): refused as read-only. */
const readOnlyIn: Record<string, Schema> = Object.fromEntries(
  ['id', 'account_id', 'ingest_url', 'availability', 'revision', 'created_at', 'updated_at'].map((f) => [
    f,
    { readOnly: true, description: 'read-only: refused in a request' },
  ]),
);

const availability = {
  oneOf: [
    object({ state: { type: 'string', const: 'enabled' } }, ['state']),
    object({ state: { type: 'string', const: 'disabled' } }, ['state']),
    object(
      {
        state: { type: 'string', const: 'paused' },
        paused_by: oneOfValues(['manual', 'maintenance_window']),
        resumes_at: nullable(dateTime('the end of the active window(s); null for a manual pause')),
      },
      ['state', 'paused_by', 'resumes_at'],
    ),
  ],
  description: 'What the ingest URL does right now (computed, not stored).',
};

export const endpointSchemas: Record<string, Schema> = {
  KeepSecret: keep,
  RedactedSecret: redacted,
  CustomHmac: customHmac,
  ...inboundAuth(secretsIn, secretIn, 'InboundAuthInput'),
  ...inboundAuth(secretsOut, ref('RedactedSecret'), 'InboundAuthView'),
  InboundAuthInput: authChoice('InboundAuthInput', 'docs/inbound-auth.md. Secrets in clear, or `{ "keep": <slot> }`.'),
  InboundAuthView: authChoice('InboundAuthView', 'Secrets shown as `{ "set": true, "last4"? }`.'),
  EndpointCreate: object({ ...settingsIn, ...readOnlyIn }, ['name'], {
    description: 'Only `name` is required; every other setting has its default.',
  }),
  EndpointPatch: object({ ...settingsIn, ...readOnlyIn }, [], {
    description: 'Each setting sent replaces the stored one as a whole.',
  }),
  Endpoint: object(
    {
      id: str({ description: '`ep_…`' }),
      name: str(),
      ingest_url: str({ description: '{PUBLIC_BASE_URL}/relay/<id>' }),
      enabled: bool(),
      paused: bool({ description: 'the manual pause only' }),
      availability,
      methods: list(oneOfValues(ENDPOINT_METHODS)),
      payload_format: oneOfValues(PAYLOAD_FORMATS),
      query_param_name: nullable(str()),
      query_param_required: bool(),
      inbound_auth: ref('InboundAuthView'),
      required_headers: list(requiredHeader),
      body_filters: list(bodyFilter),
      field_rules: list(fieldRule),
      contracts: nullable(ref('PayloadContracts')),
      ip_access: object({ allow: list(str()), deny: list(str()) }, ['allow', 'deny']),
      captcha: nullable(
        object(
          { provider: oneOfValues(CAPTCHA_PROVIDERS), secret: ref('RedactedSecret'), verify_url: str(), field: str() },
          ['provider', 'secret'],
        ),
      ),
      rate_limit_per_minute: nullable(int()),
      maintenance_windows: list(window),
      revision: int({ minimum: 1, description: 'bumped by every change' }),
      created_at: dateTime(),
      updated_at: dateTime(),
    },
    [
      'id',
      'name',
      'ingest_url',
      'enabled',
      'paused',
      'availability',
      'methods',
      'payload_format',
      'query_param_name',
      'query_param_required',
      'inbound_auth',
      'required_headers',
      'body_filters',
      'field_rules',
      'contracts',
      'ip_access',
      'captcha',
      'rate_limit_per_minute',
      'maintenance_windows',
      'revision',
      'created_at',
      'updated_at',
    ],
  ),
  EndpointList: object({ data: list(ref('Endpoint')) }, ['data']),
  EndpointAuditPage: object(
    {
      data: list(ref('AuditRow')),
      next_before: nullable(dateTime('pass as `before` for the next page; null on the last')),
    },
    ['data', 'next_before'],
  ),
};
