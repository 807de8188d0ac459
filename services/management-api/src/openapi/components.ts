import { list, object, str } from './kit';
import type { Schema } from './kit';

/**
 * Parts every path shares: the error body and the error responses (docs/management-api.md
 * "Errors"), and the bearer scheme. Each error response names the `code`s it can carry, so a
 * new code that reaches a caller without being documented fails the tests' response check.
 */

export const errorBody = (codes: string[], description: string, withFieldErrors = false): Schema =>
  object(
    {
      code: { type: 'string', enum: codes, description: 'stable, machine-readable' },
      message: str({ description: 'for people; validation errors join every field error as `field: message; …`' }),
      ...(withFieldErrors
        ? {
            errors: list(
              { $ref: '#/components/schemas/FieldError' },
              { minItems: 1, description: 'every problem at once' },
            ),
          }
        : {}),
    },
    ['code', 'message'],
    { description },
  );

const response = (description: string, schema: Schema, headers?: Schema): Schema => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema } },
});

const retryAfter = (description: string): Schema => ({ 'Retry-After': { description, schema: { type: 'string' } } });

export const schemas: Record<string, Schema> = {
  FieldError: object(
    {
      field: str({
        description:
          'the field as a form places it: `name`, `inbound_auth.bearer.tokens[1]`, `config.url`; `(body)` for the body itself',
      }),
      message: str({ description: 'what is wrong; never repeats the submitted value' }),
    },
    ['field', 'message'],
  ),
};

export const responses: Record<string, Schema> = {
  BadRequest: response(
    '`validation_failed`: a body field or a parameter is invalid — `errors` names each; `malformed_json`: the body is not JSON; `malformed_path`: the URL path is not valid percent-encoding.',
    errorBody(['validation_failed', 'malformed_json', 'malformed_path'], 'A request the server cannot use.', true),
  ),
  Unauthorized: response(
    '`unauthorized`: no API key, or one that is unknown or revoked.',
    errorBody(['unauthorized'], 'Send `Authorization: Bearer <api key>`.'),
    { 'WWW-Authenticate': { description: '`Bearer realm="relay"` (RFC 6750 §3)', schema: { type: 'string' } } },
  ),
  Forbidden: response(
    "`forbidden`: the key's or member's role is below what the operation needs (see `x-relay-role`). `csrf_failed`: a change made with the dashboard's session cookie without its CSRF token, or from another origin (docs/dashboard.md).",
    errorBody(['forbidden', 'csrf_failed'], 'The message names both roles, or what the session request lacked.'),
  ),
  NotFound: response(
    '`not_found`: the resource does not exist or belongs to another account.',
    errorBody(['not_found'], 'Nothing to show.'),
  ),
  Conflict: response(
    '`conflict`: another request changed the endpoint while this one was being saved; read it again and retry.',
    errorBody(['conflict'], 'A lost race.'),
  ),
  AlertRulesFull: response(
    '`too_many_alert_rules`: the account has the most alert rules it may have (docs/alerts.md).',
    errorBody(['too_many_alert_rules'], 'Delete a rule first.'),
  ),
  PayloadTooLarge: response('`payload_too_large`: a body over 256 KB.', errorBody(['payload_too_large'], 'Too large.')),
  InternalError: response(
    '`internal_error`: opaque to the caller, logged in full.',
    errorBody(['internal_error'], 'Something failed on the server.'),
  ),
  TooManyRequests: response(
    "`too_many_test_requests`, `too_many_resends`, `too_many_bulk_retries`, `too_many_bulk_reruns`, `too_many_test_alerts`: the account's ceiling for that action (docs/management-api.md, docs/alerts.md).",
    errorBody(
      [
        'too_many_test_requests',
        'too_many_resends',
        'too_many_bulk_retries',
        'too_many_bulk_reruns',
        'too_many_test_alerts',
      ],
      'Retry after the delay in Retry-After.',
    ),
    retryAfter('seconds until the window ends'),
  ),
  GatewayUnavailable: response(
    '`gateway_unavailable`: no ingest gateway ran the test request or re-run (a bulk re-run: those before it were run, and running it again is safe).',
    errorBody(['gateway_unavailable'], 'Nothing was run. Retry shortly.'),
    retryAfter('seconds: 5'),
  ),
  ResendUnavailable: response(
    '`delivery_queue_unavailable`: the broker did not confirm the deliveries (nothing was sent, or a delivery went out that the receiver dedupes on its `X-Relay-Delivery-Id`); `resend_unavailable`: the event’s resend count (Redis) cannot be checked, so nothing was sent.',
    errorBody(['delivery_queue_unavailable', 'resend_unavailable'], 'Retry shortly.'),
    retryAfter('seconds: 5'),
  ),
  UsageUnavailable: response(
    '`usage_unavailable`: the usage counter (Redis) cannot be read.',
    errorBody(['usage_unavailable'], 'Retry shortly.'),
    { 'Retry-After': { description: 'seconds: 5', schema: { type: 'string' } } },
  ),
};

export const securitySchemes: Record<string, Schema> = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A management API key (`rk_…`), created by `npm run bootstrap` (an owner key) or `POST /v1/api-keys`. Its role decides what it may do.',
  },
};
