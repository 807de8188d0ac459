import { MAX_KEPT_BODY_CHARS, MAX_KEPT_HEADER_NAME, MAX_KEPT_HEADER_VALUE, MAX_KEPT_HEADERS } from './kept-response';
import { DELIVERY_STATES, OUTCOMES } from './outcomes';
import {
  ACCOUNT_EVENT_KINDS,
  ACCOUNT_EVENT_V1,
  MAX_ACCOUNT_EVENT_DETAIL_KEYS,
  MAX_ACCOUNT_EVENT_DETAIL_STRING,
} from './account-events';
import {
  ACTIVITY_ATTEMPT_V1,
  ACTIVITY_BATCH_V1,
  ACTIVITY_REQUEST_V1,
  DELIVERY_V1,
  MAX_ACTIVITY_BATCH,
  MAX_ATTEMPT_TRANSFORM_LOG_CHARS,
  MAX_ATTEMPT_TRANSFORM_LOGS,
  MAX_PAYLOAD_BATCH,
  PAYLOAD_BATCH_V1,
  QUARANTINE_STATES,
} from './messages';

const id = { type: 'string', minLength: 1, maxLength: 128 } as const;

/** Longest source IP text a message carries; producers refuse longer values before publishing. */
export const MAX_SOURCE_IP_LENGTH = 64;
/** Longest ordering key a delivery carries; a longer key is cut to it (docs/ordering.md). */
export const MAX_ORDER_KEY_LENGTH = 256;

/** Longest Content-Type a delivery carries; the gateway refuses a longer one with a row (400). */
export const MAX_CONTENT_TYPE_LENGTH = 256;
const time = { type: 'string', format: 'date-time' } as const;
const nullableString = { type: ['string', 'null'], maxLength: 2000 } as const;

const forwardableRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['method', 'source_ip', 'headers', 'query'],
  properties: {
    method: { type: 'string', minLength: 1, maxLength: 32 },
    source_ip: { type: 'string', maxLength: MAX_SOURCE_IP_LENGTH },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    query: { type: 'string' },
  },
} as const;

const deliveryPayloadSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['content_type', 'body_base64'],
  properties: {
    content_type: { type: ['string', 'null'], maxLength: MAX_CONTENT_TYPE_LENGTH },
    body_base64: { type: 'string' },
  },
} as const;

export const deliveryV1Schema = {
  $id: DELIVERY_V1,
  type: 'object',
  additionalProperties: false,
  required: [
    'type',
    'event_id',
    'delivery_id',
    'attempt',
    'account_id',
    'endpoint_id',
    'target_id',
    'target_kind',
    'received_at',
    'request',
    'payload',
  ],
  properties: {
    type: { const: DELIVERY_V1 },
    event_id: id,
    delivery_id: id,
    attempt: { type: 'integer', minimum: 1 },
    account_id: id,
    endpoint_id: id,
    target_id: id,
    target_kind: id,
    received_at: time,
    request: forwardableRequestSchema,
    payload: deliveryPayloadSchema,
    order_key: { type: 'string', maxLength: MAX_ORDER_KEY_LENGTH },
  },
} as const;

export const activityRequestV1Schema = {
  $id: ACTIVITY_REQUEST_V1,
  type: 'object',
  additionalProperties: false,
  required: [
    'type',
    'event_id',
    'account_id',
    'endpoint_id',
    'received_at',
    'method',
    'source_ip',
    'outcome',
    'reason',
    'target_count',
    'test',
  ],
  properties: {
    type: { const: ACTIVITY_REQUEST_V1 },
    event_id: id,
    account_id: id,
    endpoint_id: id,
    received_at: time,
    method: { type: 'string', minLength: 1, maxLength: 32 },
    source_ip: { type: 'string', maxLength: MAX_SOURCE_IP_LENGTH },
    outcome: { enum: OUTCOMES },
    reason: nullableString,
    target_count: { type: 'integer', minimum: 0 },
    test: { type: 'boolean' },
    not_routed: { type: 'array', items: id, maxItems: 1000 },
    quarantine: { enum: QUARANTINE_STATES },
    rerun_of: id,
    contract_violation: { type: 'string', maxLength: 500 },
    alert: {
      type: 'object',
      additionalProperties: false,
      required: ['alert_id', 'rule_id', 'rule_name', 'kind', 'title'],
      properties: {
        alert_id: id,
        rule_id: id,
        rule_name: { type: 'string', maxLength: 200 },
        kind: { type: 'string', maxLength: 64 },
        title: { type: 'string', maxLength: 200 },
      },
    },
  },
} as const;

export const activityAttemptV1Schema = {
  $id: ACTIVITY_ATTEMPT_V1,
  type: 'object',
  additionalProperties: false,
  required: [
    'type',
    'event_id',
    'delivery_id',
    'account_id',
    'endpoint_id',
    'target_id',
    'target_kind',
    'attempt',
    'attempted_at',
    'state',
    'status_code',
    'duration_ms',
    'error',
    'next_attempt_at',
  ],
  properties: {
    type: { const: ACTIVITY_ATTEMPT_V1 },
    event_id: id,
    delivery_id: id,
    account_id: id,
    endpoint_id: id,
    target_id: id,
    target_kind: id,
    attempt: { type: 'integer', minimum: 1 },
    attempted_at: time,
    state: { enum: DELIVERY_STATES },
    status_code: { type: ['integer', 'null'] },
    duration_ms: { type: 'number', minimum: 0 },
    error: nullableString,
    next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    response: {
      type: 'object',
      additionalProperties: false,
      required: ['headers', 'headers_omitted', 'body', 'body_truncated'],
      properties: {
        headers: {
          type: 'object',
          maxProperties: MAX_KEPT_HEADERS,
          propertyNames: { maxLength: MAX_KEPT_HEADER_NAME },
          additionalProperties: { type: 'string', maxLength: MAX_KEPT_HEADER_VALUE },
        },
        headers_omitted: { type: 'integer', minimum: 0 },
        body: { type: 'string', maxLength: MAX_KEPT_BODY_CHARS },
        body_truncated: { type: 'boolean' },
      },
    },
    transform: {
      type: 'object',
      additionalProperties: false,
      required: ['versions', 'logs'],
      properties: {
        versions: {
          type: 'array',
          maxItems: 2,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['scope', 'version'],
            properties: { scope: { enum: ['endpoint', 'target'] }, version: { type: 'integer', minimum: 1 } },
          },
        },
        logs: {
          type: 'array',
          maxItems: MAX_ATTEMPT_TRANSFORM_LOGS,
          items: { type: 'string', maxLength: MAX_ATTEMPT_TRANSFORM_LOG_CHARS },
        },
      },
    },
    resends: { type: 'integer', minimum: 1 },
    ordering: {
      type: 'object',
      additionalProperties: false,
      required: ['key', 'stuck_since'],
      properties: { key: { type: 'string', maxLength: MAX_ORDER_KEY_LENGTH }, stuck_since: time },
    },
  },
} as const;

/** Each record is checked against its own type's schema (compiled first, referenced by `$id`). */
export const activityBatchV1Schema = {
  $id: ACTIVITY_BATCH_V1,
  type: 'object',
  additionalProperties: false,
  required: ['type', 'records'],
  properties: {
    type: { const: ACTIVITY_BATCH_V1 },
    records: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_ACTIVITY_BATCH,
      items: {
        type: 'object',
        required: ['type'],
        properties: { type: { enum: [ACTIVITY_REQUEST_V1, ACTIVITY_ATTEMPT_V1] } },
        if: { properties: { type: { const: ACTIVITY_REQUEST_V1 } } },
        then: { $ref: ACTIVITY_REQUEST_V1 },
        else: { $ref: ACTIVITY_ATTEMPT_V1 },
      },
    },
  },
} as const;

export const payloadBatchV1Schema = {
  $id: PAYLOAD_BATCH_V1,
  type: 'object',
  additionalProperties: false,
  required: ['type', 'payloads'],
  properties: {
    type: { const: PAYLOAD_BATCH_V1 },
    payloads: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_PAYLOAD_BATCH,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['event_id', 'account_id', 'endpoint_id', 'received_at', 'request', 'payload'],
        properties: {
          event_id: id,
          account_id: id,
          endpoint_id: id,
          received_at: time,
          request: forwardableRequestSchema,
          payload: deliveryPayloadSchema,
        },
      },
    },
  },
} as const;

export const accountEventV1Schema = {
  $id: ACCOUNT_EVENT_V1,
  type: 'object',
  additionalProperties: false,
  required: ['type', 'kind', 'account_id', 'at', 'detail'],
  properties: {
    type: { const: ACCOUNT_EVENT_V1 },
    kind: { enum: [...ACCOUNT_EVENT_KINDS] },
    account_id: id,
    endpoint_id: id,
    target_id: id,
    at: time,
    detail: {
      type: 'object',
      maxProperties: MAX_ACCOUNT_EVENT_DETAIL_KEYS,
      additionalProperties: {
        anyOf: [
          { type: 'string', maxLength: MAX_ACCOUNT_EVENT_DETAIL_STRING },
          { type: 'number' },
          { type: 'boolean' },
          { type: 'null' },
        ],
      },
    },
  },
} as const;
