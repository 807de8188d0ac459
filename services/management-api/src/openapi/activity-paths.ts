import {
  DELIVERY_STATES,
  MAX_ATTEMPT_TRANSFORM_LOG_CHARS,
  MAX_ATTEMPT_TRANSFORM_LOGS,
  MAX_KEPT_BODY_CHARS,
  MAX_KEPT_HEADER_VALUE,
  MAX_KEPT_HEADERS,
  MAX_ORDER_KEY_LENGTH,
  OUTCOMES,
  QUARANTINE_STATES,
} from '@relay/contracts';
import { STATUS_FILTERS } from '../domain/activity-query';
import {
  bool,
  dateTime,
  errors,
  int,
  json,
  list,
  nullable,
  object,
  oneOfValues,
  op,
  pathParam,
  queryParam,
  ref,
  str,
} from './kit';
import type { Schema } from './kit';

/*
 * The Request activity log (spec "Activity record"; docs/management-api.md "Activity log").
 * An empty query parameter is the same as none.
 */

/*
 * A row's deliveries can reach the log before the gateway's record of the request (one the
 * broker did not take is kept and published again later): until that record arrives the row
 * has no request fields.
 */
const PENDING_RECORD = "null until the gateway's record of the request reaches the log (its deliveries came first)";

const aggregate = nullable(
  object(
    { count: int({ minimum: 1 }), first_seen: dateTime(), last_seen: dateTime() },
    ['count', 'first_seen', 'last_seen'],
    { description: 'a flood of identical rejections in one minute, folded into this row' },
  ),
);
const common: Record<string, Schema> = {
  id: str({ description: 'the event id (`evt_…`), or `agg_…` for an aggregated row' }),
  account_id: str(),
  endpoint_id: str(),
  received_at: dateTime("the first attempt's time while the request's fields are null"),
  method: nullable(str({ description: PENDING_RECORD })),
  source_ip: nullable(str({ description: 'null on aggregated rows, and ' + PENDING_RECORD })),
  outcome: nullable(oneOfValues(OUTCOMES, 'docs/ingest.md lists each with its HTTP status; ' + PENDING_RECORD)),
  reason: nullable(str({ description: 'why a request was rejected' })),
  status: oneOfValues(['completed', 'pending', 'errors'], 'the filter group'),
  last_error: nullable(str({ description: 'the latest delivery error' })),
  target_count: int({ minimum: 0 }),
  test: bool({ description: 'a test request (the Test group)' }),
  aggregate,
  alert: nullable(ref('ActivityAlert')),
};
const names = Object.keys(common);

const attempt = object(
  {
    attempt: int({ minimum: 1 }),
    attempted_at: dateTime(),
    state: oneOfValues(DELIVERY_STATES),
    status_code: nullable(int()),
    duration_ms: { type: 'number', minimum: 0 },
    error: nullable(str()),
    next_attempt_at: nullable(dateTime()),
    response: object(
      {
        headers: {
          type: 'object',
          maxProperties: MAX_KEPT_HEADERS,
          additionalProperties: str({ maxLength: MAX_KEPT_HEADER_VALUE }),
          description: `the response headers by lower-case name, at most ${MAX_KEPT_HEADERS}, each value at most ${MAX_KEPT_HEADER_VALUE} characters; a credential's (Set-Cookie, Authorization, names with token, secret, signature, password, api key, session) as \`[redacted]\``,
        },
        headers_omitted: int({ minimum: 0, description: `headers past the first ${MAX_KEPT_HEADERS}, left out` }),
        body: str({
          maxLength: MAX_KEPT_BODY_CHARS,
          description: `the first ${MAX_KEPT_BODY_CHARS} characters of the body`,
        }),
        body_truncated: bool({ description: 'the body was longer' }),
      },
      ['headers', 'headers_omitted', 'body', 'body_truncated'],
      {
        description:
          'What the target answered (docs/delivery.md). Absent when no HTTP answer came: a network failure, an email or spreadsheet target, an attempt not sent, or an attempt recorded before responses were kept.',
      },
    ),
    transform: object(
      {
        versions: list(
          object({ scope: oneOfValues(['endpoint', 'target']), version: int({ minimum: 1 }) }, ['scope', 'version']),
          { description: 'in the order they ran: the endpoint’s, then the target’s' },
        ),
        logs: list(str({ maxLength: MAX_ATTEMPT_TRANSFORM_LOG_CHARS }), {
          maxItems: MAX_ATTEMPT_TRANSFORM_LOGS,
          description: 'their console lines, `[<scope> v<version>] …`',
        }),
      },
      ['versions', 'logs'],
      { description: 'The transformations that ran for this attempt (docs/transformations.md); absent when none.' },
    ),
    resends: int({
      minimum: 1,
      description:
        'times the request was sent again inside this attempt, after a reused kept-alive connection was reset before any answer: the target may have got 1 + `resends` requests, all with the same `X-Relay-Delivery-Id` (docs/delivery.md "Stale connections"); absent when none',
    }),
    ordering: object(
      {
        key: str({ maxLength: MAX_ORDER_KEY_LENGTH }),
        stuck_since: dateTime('when the key was found stuck: its head had waited `ORDERING_STUCK_AFTER_MS`'),
      },
      ['key', 'stuck_since'],
      {
        description:
          'The ordering key this delivery held back as the head of a stuck key (docs/ordering.md "Held keys"): set on its latest attempt when the key was found stuck, and on each attempt after it; absent otherwise.',
      },
    ),
  },
  ['attempt', 'attempted_at', 'state', 'status_code', 'duration_ms', 'error', 'next_attempt_at'],
);
const delivery = object(
  {
    delivery_id: str(),
    target_id: str(),
    target_kind: str(),
    target_name: nullable(str({ description: 'the target’s name now; null once it was deleted' })),
    state: oneOfValues(DELIVERY_STATES),
    started_at: dateTime(
      'when the delivery began: the request’s `received_at` for the first delivery to a target, the time of the resend or bulk retry that made a later one; its latency runs from here',
    ),
    attempts: list(attempt),
  },
  ['delivery_id', 'target_id', 'target_kind', 'target_name', 'state', 'started_at', 'attempts'],
);

export const activitySchemas: Record<string, Schema> = {
  ActivityAlert: object(
    {
      alert_id: str(),
      rule_id: str(),
      rule_name: str(),
      kind: str({ description: 'the condition kind (docs/alerts.md)' }),
      title: str({ description: 'the condition’s name, e.g. “A target was flagged”' }),
    },
    ['alert_id', 'rule_id', 'rule_name', 'kind', 'title'],
    {
      description:
        'the alert this row delivers: Relay’s own message to the target, not a sender’s request (no source IP, no stored request, no resend); null on requests',
    },
  ),
  ActivityListed: object(
    {
      ...common,
      next_attempt_at: nullable(
        dateTime(
          'when the soonest delivery of the row that failed and waits for its next attempt is tried again; null when none waits (never tried yet, delivered, or failed for good). A `pending` row with a time is retrying: the dashboard reads it "Retrying"',
        ),
      ),
    },
    [...names, 'next_attempt_at'],
  ),
  ActivityPage: object(
    {
      data: list(ref('ActivityListed')),
      next_cursor: nullable(str({ description: 'pass back as `cursor` with the same filters; null at the end' })),
    },
    ['data', 'next_cursor'],
  ),
  ActivityRequest: object(
    {
      event_id: str(),
      method: str(),
      source_ip: str(),
      query: str({ description: 'the raw query string, without `?`; empty when none' }),
      headers: {
        type: 'object',
        additionalProperties: str(),
        description:
          'as the sender sent them, lower-case names; credentials (inbound-auth headers, and any name with token, secret, signature, password, api key, session, cookie or authorization) read `[redacted]`',
      },
      content_type: nullable(str()),
      size_bytes: int({ minimum: 0 }),
      body_base64: str({ description: 'the payload’s exact bytes' }),
      body_text: nullable(
        str({ description: 'the payload as text when its bytes are UTF-8; null otherwise (use body_base64)' }),
      ),
    },
    ['event_id', 'method', 'source_ip', 'query', 'headers', 'content_type', 'size_bytes', 'body_base64', 'body_text'],
    { description: 'The request of an accepted event, as kept for resends.' },
  ),
  ActivityRow: object(
    {
      ...common,
      deliveries: list(delivery),
      not_routed: list(
        object(
          {
            target_id: str(),
            target_name: nullable(str({ description: 'the target’s name now; null once it was deleted' })),
          },
          ['target_id', 'target_name'],
        ),
        {
          description:
            'targets the event was not sent to because its payload did not meet their routing rules (docs/routing.md); empty when none',
        },
      ),
      quarantine: nullable(
        oneOfValues(
          QUARANTINE_STATES,
          'a refusal after authentication (docs/ingest.md "Quarantine"): `kept`, its request is stored and can be re-run (POST /v1/activity/{eventId}/rerun); `bound_reached`, the account’s hourly quarantine bound was used up and it was not kept; null on every other row',
        ),
      ),
      rerun_of: nullable(str({ description: 'the quarantined request this row re-ran; null otherwise' })),
      contract_violation: nullable(
        str({
          description:
            'an event accepted in contract `mark` mode though its payload failed: the schema and what failed (docs/contracts.md); null otherwise',
        }),
      ),
    },
    [...names, 'deliveries', 'not_routed', 'quarantine', 'rerun_of', 'contract_violation'],
    { description: 'One row with its deliveries and their attempts.' },
  ),
};

export const activityPaths: Record<string, Schema> = {
  '/v1/activity': {
    get: op({
      operationId: 'listActivity',
      summary: 'The Request activity log',
      description:
        'Newest hour first. Each call reads at most a fixed number of stored pages, so a sparse filter can return fewer than `limit` rows — even none — with a `next_cursor`: follow it until it is null.',
      tags: ['Activity'],
      role: 'viewer',
      parameters: [
        queryParam('endpoint_id', 'one endpoint; without it every endpoint of the account', str()),
        queryParam('from', 'inclusive, ISO 8601', str()),
        queryParam('to', 'exclusive, ISO 8601', str()),
        queryParam('status', 'the filter group', { type: 'string', enum: [...STATUS_FILTERS], default: 'all' }),
        queryParam('source_ip', 'an exact IPv4 or IPv6 address (anything else is a 400)', str()),
        queryParam(
          'error',
          'a literal, case-insensitive substring of what the row shows: the outcome label and code (`Unsupported Media Type (UNSUPPORTED_MEDIA_TYPE)`), the rejection reason or the latest delivery error; needs a window of at most 24 hours (the last 24 hours by default)',
          str({ maxLength: 200 }),
        ),
        queryParam(
          'payload',
          'a literal, case-insensitive substring of the stored payload (accepted rows; the body read as UTF-8). Reads at most 100 rows a call: follow `next_cursor` to search older rows. Same 24-hour window as `error`',
          str({ maxLength: 200 }),
        ),
        queryParam(
          'response_status',
          'rows with an attempt answered this status (`503`) or class (`5xx`). Reads at most 100 rows a call: follow `next_cursor` to search older rows. Same 24-hour window as `error`',
          str({ pattern: '^[1-5]([0-9]{2}|[xX]{2})$' }),
        ),
        queryParam('limit', 'rows per page', int({ minimum: 1, maximum: 200, default: 50 })),
        queryParam('cursor', 'the `next_cursor` of the previous page', str()),
      ],
      responses: { '200': json(ref('ActivityPage'), 'One page.') },
    }),
  },
  '/v1/activity/{eventId}': {
    get: op({
      operationId: 'getActivity',
      summary: 'One activity row',
      description: 'The row with its deliveries and every attempt (the error reason shown on expanding a row).',
      tags: ['Activity'],
      role: 'viewer',
      parameters: [pathParam('eventId', 'the event id')],
      responses: { '200': json(ref('ActivityRow'), 'The row.'), ...errors('NotFound') },
    }),
  },
  '/v1/activity/{eventId}/request': {
    get: op({
      operationId: 'getActivityRequest',
      summary: 'The request of an activity row',
      description:
        'What the sender sent, as the gateway kept it for resends: method, source IP, query, headers (credentials redacted) and the payload (its bytes, size and, when UTF-8, its text). Kept for accepted and quarantined requests (docs/ingest.md "Quarantine"), as long as the row; any other refused request has none (404).',
      tags: ['Activity'],
      role: 'viewer',
      parameters: [pathParam('eventId', 'the event id')],
      responses: { '200': json(ref('ActivityRequest'), 'The request.'), ...errors('NotFound') },
    }),
  },
};
