import { OUTCOMES } from '@relay/contracts';
import { BULK_RETRY_PAGE, JOB_STATES, PREVIEW_MAX_ROWS, zeroCounts } from '../domain/bulk-retry-job';
import { MAX_RESEND_TARGET_IDS, MAX_RESENT_DELIVERIES_PER_EVENT } from '../domain/resend';
import { errorBody } from './components';
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
 * Test requests, resend and bulk retry (docs/management-api.md "Test requests", "Resend",
 * "Bulk retry"). Their handlers validate bodies with their own messages (domain/test-request.ts,
 * domain/bulk-retry-job.ts); these schemas say no more than those checks, so the document never
 * refuses a body the handler would take, and name every field so an unknown one is refused.
 */

const endpointId = pathParam('endpointId', 'the endpoint id (`ep_…`); another account’s endpoint is not found');
const eventId = pathParam('eventId', 'the event id (`evt_…`)');
const jobId = pathParam('jobId', 'the bulk retry id (`brj_…`); another account’s job is not found');
const bodyOf = (schema: Schema): Schema => ({ required: false, content: { 'application/json': { schema } } });

/** A 409 naming the codes this operation can answer with. */
const refused = (codes: string[], description: string): Record<string, Schema> => ({
  '409': json(errorBody(codes, 'Nothing was done.'), description),
});

/** 422: the gateway's pipeline refused the request, with what a sender would have been answered. */
const pipelineRejected = (code: string, row: string): Schema =>
  object(
    {
      code: { type: 'string', enum: [code] },
      message: str({ description: 'names what the pipeline said' }),
      event_id: nullable(
        str({ description: `${row}; null when a sender gets no row either (disabled or paused endpoint)` }),
      ),
      outcome: nullable(oneOfValues(OUTCOMES)),
      reason: nullable(str()),
      ingest_status: int({ description: 'the HTTP status a sender would have got' }),
      ingest_code: str({ description: 'the `code` a sender would have got (docs/ingest.md)' }),
    },
    ['code', 'message', 'event_id', 'outcome', 'reason', 'ingest_status', 'ingest_code'],
  );

const id = (description: string): Schema => str({ minLength: 1, maxLength: 128, description });
const counts = Object.keys(zeroCounts());
const countsSchema = (description: string): Schema =>
  object(Object.fromEntries(counts.map((c) => [c, int({ minimum: 0 })])), counts, { description });

export const replaySchemas: Record<string, Schema> = {
  TestRequest: object(
    {
      method: str({
        description:
          'any of the endpoint methods, in any case; default POST if the endpoint allows it, else its first allowed method',
      }),
      headers: {
        type: 'object',
        additionalProperties: { type: 'string', maxLength: 4096 },
        description:
          'at most 50; not Content-Type (use `content_type`), Content-Length, Host, Transfer-Encoding or Connection',
      },
      query: str({ maxLength: 8192, description: 'the raw query string, without `?`, `#` or white space' }),
      content_type: nullable(
        str({ maxLength: 256, description: 'default: the media type of the endpoint’s format; null sends none' }),
      ),
      body: {
        description: 'a string is sent as its UTF-8 bytes, any other JSON value as JSON text; not with `body_base64`',
      },
      body_base64: str({ description: 'the exact bytes, base64; not with `body`' }),
    },
    [],
    {
      description:
        'Every field optional: without `body`, `body_base64` and `query`, a sample the endpoint’s format reads is sent.',
    },
  ),
  TestRequestAccepted: object(
    {
      event_id: str(),
      outcome: { type: 'string', const: 'ACCEPTED' },
      target_count: int({
        minimum: 0,
        description: 'the targets it is being delivered to; their attempts show on the row',
      }),
      test: { type: 'boolean', const: true },
      replayed: bool({
        description:
          'true when an `Idempotency-Key` in `headers` repeated an earlier request: its first answer, nothing delivered again',
      }),
    },
    ['event_id', 'outcome', 'target_count', 'test', 'replayed'],
  ),
  TestRequestRejected: pipelineRejected('test_request_rejected', 'the Test row written'),
  RerunAccepted: object(
    {
      event_id: str({ description: 'the new event; its row’s `rerun_of` is the original' }),
      outcome: { type: 'string', const: 'ACCEPTED' },
      target_count: int({
        minimum: 0,
        description: 'the targets it is being delivered to; their attempts show on the row',
      }),
      rerun_of: str({ description: 'the quarantined request re-run' }),
      replayed: bool({
        description:
          'true when the request was already re-run and accepted (or its Idempotency-Key or provider delivery id repeats an accepted request): that event, nothing delivered again',
      }),
    },
    ['event_id', 'outcome', 'target_count', 'rerun_of', 'replayed'],
  ),
  RerunRejected: pipelineRejected('rerun_rejected', 'the new row, quarantined again when the rules refused it'),
  Resend: object({
    target_ids: list(id('a target of the row’s endpoint'), {
      minItems: 1,
      maxItems: MAX_RESEND_TARGET_IDS,
      uniqueItems: true,
      description:
        'only these targets (enabled, not flagged); without it every enabled target the endpoint has now, except those the row lists as not routed (docs/routing.md)',
    }),
    target_id: id('only this target (the same as `target_ids` of one); not with `target_ids`'),
  }),
  ResendAccepted: object(
    {
      event_id: str(),
      deliveries: list(
        object(
          { delivery_id: str({ description: '`<first delivery id>_r<tag>`' }), target_id: str(), target_kind: str() },
          ['delivery_id', 'target_id', 'target_kind'],
        ),
        { minItems: 1 },
      ),
    },
    ['event_id', 'deliveries'],
  ),
  BulkRetryCreate: object({
    endpoint_id: nullable(id('without it every endpoint of the account')),
    target_id: nullable(id('needs `endpoint_id`: only that target’s failed deliveries')),
    status: { type: 'string', enum: ['errors'], description: 'the only group with failed deliveries' },
    from: str({ description: 'ISO 8601; default `to` − 24 h; never before the retention period' }),
    to: str({ description: 'ISO 8601; default now' }),
    rate_per_second: int({
      minimum: 1,
      description: 'deliveries published per second, at most BULK_RETRY_MAX_RATE (the default)',
    }),
  }),
  BulkRetry: object(
    {
      id: str({ description: '`brj_…`' }),
      account_id: str(),
      filter: object(
        {
          endpoint_id: nullable(str()),
          target_id: nullable(str()),
          status: { type: 'string', const: 'errors' },
          from: dateTime(),
          to: dateTime(),
        },
        ['endpoint_id', 'target_id', 'status', 'from', 'to'],
      ),
      rate_per_second: int({ minimum: 1 }),
      state: oneOfValues(JOB_STATES, '`queued` → `running` → `done` | `cancelled` | `failed`'),
      cancel_requested: bool(),
      progress: countsSchema(
        'the total is not known in advance: `rows_scanned` grows until `done`; `skipped_resend_limit`: rows whose new deliveries would pass the per-event ceiling resends share; `deliveries_held`: failed deliveries left out because their target is flagged or paused (`skipped_target_held`: rows with nothing else to retry)',
      ),
      runs: int({ minimum: 0, description: 'runs taken so far (a run resumes from the saved cursor after a crash)' }),
      created_at: dateTime(),
      started_at: nullable(dateTime()),
      updated_at: dateTime(),
      finished_at: nullable(dateTime()),
      error: nullable(str({ description: 'why the last run ended early (the next resumes), or why the job failed' })),
    },
    [
      'id',
      'account_id',
      'filter',
      'rate_per_second',
      'state',
      'cancel_requested',
      'progress',
      'runs',
      'created_at',
      'started_at',
      'updated_at',
      'finished_at',
      'error',
    ],
  ),
  BulkRetryPreview: object(
    {
      filter: object(
        {
          endpoint_id: nullable(str()),
          target_id: nullable(str()),
          status: { type: 'string', const: 'errors' },
          from: dateTime(),
          to: dateTime(),
        },
        ['endpoint_id', 'target_id', 'status', 'from', 'to'],
      ),
      deliveries: int({ minimum: 0, description: 'failed deliveries a bulk retry of this body would queue again now' }),
      events: int({ minimum: 0, description: 'the events (rows) they belong to' }),
      complete: bool({
        description: `false when the window holds more than \`max_rows\` rows of Errors: the counts are of the newest ${PREVIEW_MAX_ROWS}, a floor`,
      }),
      max_rows: int({ minimum: 1, description: 'most rows a preview goes through' }),
      counts: countsSchema('the job’s counts as a run now would make them, nothing queued'),
      held_targets: list(
        object(
          {
            target_id: str(),
            name: str(),
            held: { type: 'string', enum: ['flagged', 'paused'] },
            deliveries: int({ minimum: 1, description: 'its failed deliveries the bulk retry leaves out' }),
          },
          ['target_id', 'name', 'held', 'deliveries'],
        ),
        {
          description:
            'targets that are flagged (clear the flag first) or paused (resume first), by name: their failed deliveries are left out of the count and of the job',
        },
      ),
    },
    ['filter', 'deliveries', 'events', 'complete', 'max_rows', 'counts', 'held_targets'],
  ),
  BulkRetryPage: object(
    {
      data: list(ref('BulkRetry')),
      next_cursor: nullable(str({ description: 'pass back as `cursor`; null on the last page' })),
    },
    ['data', 'next_cursor'],
  ),
};

const job = (description: string, headers?: Schema): Schema => ({
  ...json(ref('BulkRetry'), description),
  ...(headers ? { headers } : {}),
});

export const replayPaths: Record<string, Schema> = {
  '/v1/endpoints/{endpointId}/test': {
    post: op({
      operationId: 'testEndpoint',
      summary: 'Send a test request',
      description:
        'Runs a request through the real ingest pipeline as if a sender had sent it, and delivers it to the targets. IP lists, inbound auth, captcha, the rate limit and the quota are skipped; the row is in the Test group. Each account may run TEST_REQUESTS_PER_MINUTE a minute.',
      tags: ['Endpoints'],
      role: 'editor',
      parameters: [endpointId],
      requestBody: bodyOf(ref('TestRequest')),
      responses: {
        '202': json(ref('TestRequestAccepted'), 'Accepted by the pipeline; being delivered.'),
        '422': json(
          ref('TestRequestRejected'),
          '`test_request_rejected`: the pipeline refused it, as it would a sender’s request.',
        ),
        ...errors('NotFound', 'TooManyRequests', 'GatewayUnavailable'),
      },
    }),
  },
  '/v1/activity/{eventId}/resend': {
    post: op({
      operationId: 'resendActivity',
      summary: 'Resend an event',
      description: `Delivers an accepted event’s stored payload again, under the same event id with new delivery ids, to the targets named or every enabled target the event was routed to. The row lists the new deliveries beside the first. Each account may ask for RESENDS_PER_MINUTE a minute; resends of one event may add at most ${MAX_RESENT_DELIVERIES_PER_EVENT} deliveries.`,
      tags: ['Activity'],
      role: 'editor',
      parameters: [eventId],
      requestBody: bodyOf(ref('Resend')),
      responses: {
        '202': json(ref('ResendAccepted'), 'The broker confirmed every delivery.'),
        ...errors('NotFound'),
        ...refused(
          [
            'not_resendable',
            'payload_not_stored',
            'no_targets',
            'target_disabled',
            'target_flagged',
            'resend_limit_reached',
          ],
          `\`not_resendable\`: the request was refused, nothing to deliver; \`payload_not_stored\`: no stored payload (or not yet: retry in a few seconds); \`no_targets\`, \`target_disabled\`, \`target_flagged\`: nothing enabled to deliver to; \`resend_limit_reached\`: resends of this event already added ${MAX_RESENT_DELIVERIES_PER_EVENT} deliveries (a resend to n targets adds n), the most one event may have, so its row stays small.`,
        ),
        ...errors('TooManyRequests', 'ResendUnavailable'),
      },
    }),
  },
  '/v1/activity/{eventId}/rerun': {
    post: op({
      operationId: 'rerunActivity',
      summary: 'Re-run a quarantined request',
      description:
        'Runs a quarantined request (its row’s `quarantine` is `kept`: refused by its payload or the endpoint’s rules after it passed authentication) through the endpoint’s steps again under the current settings, as if just received: IP lists, inbound auth and captcha are skipped (it passed them, or its token is spent); the rate limit, quota and de-duplication count as for a sender. The new row’s `rerun_of` names the original; a request re-run and accepted once is answered with that event (`replayed`). Counts against RESENDS_PER_MINUTE.',
      tags: ['Activity'],
      role: 'editor',
      parameters: [eventId],
      responses: {
        '202': json(ref('RerunAccepted'), 'Accepted by the pipeline; being delivered.'),
        '422': json(ref('RerunRejected'), '`rerun_rejected`: the pipeline refused it again.'),
        ...errors('NotFound'),
        ...refused(
          ['not_quarantined', 'quarantine_bound_reached', 'payload_not_stored'],
          '`not_quarantined`: the row is not a quarantined request (accepted, or refused before authentication passed, or by a limit); `quarantine_bound_reached`: it was refused when the account’s hourly quarantine bound was used up, so nothing was kept; `payload_not_stored`: the kept request has not reached the log yet (retry in a few seconds).',
        ),
        ...errors('TooManyRequests', 'GatewayUnavailable'),
      },
    }),
  },
  '/v1/bulk-retries': {
    get: op({
      operationId: 'listBulkRetries',
      summary: 'List bulk retries',
      description:
        'The account’s bulk retries, newest first, each as `GET /v1/bulk-retries/{jobId}` gives it. Jobs are kept until they are older than the activity they retried (ACTIVITY_RETENTION_DAYS), then deleted, oldest first.',
      tags: ['Activity'],
      role: 'viewer',
      parameters: [
        queryParam(
          'limit',
          'jobs per page',
          int({ minimum: 1, maximum: BULK_RETRY_PAGE.max, default: BULK_RETRY_PAGE.default }),
        ),
        queryParam('cursor', 'the `next_cursor` of the previous page', str({ pattern: '^[0-9]{1,9}$' })),
      ],
      responses: { '200': json(ref('BulkRetryPage'), 'One page.') },
    }),
    post: op({
      operationId: 'createBulkRetry',
      summary: 'Start a bulk retry',
      description:
        'A background job that delivers again every failed delivery of the Errors group in a window, paced at `rate_per_second`. Each account may start 20 an hour.',
      tags: ['Activity'],
      role: 'editor',
      requestBody: bodyOf(ref('BulkRetryCreate')),
      responses: {
        '202': job('The job, queued.', {
          Location: { description: '`/v1/bulk-retries/<id>`', schema: { type: 'string' } },
        }),
        ...errors('NotFound', 'TooManyRequests'),
      },
    }),
  },
  '/v1/bulk-retries/preview': {
    post: op({
      operationId: 'previewBulkRetry',
      summary: 'Count what a bulk retry would queue',
      description: `Takes the body of \`POST /v1/bulk-retries\` and answers how many failed deliveries, of how many events, a bulk retry of it would queue again now — by the job’s own rules and walk, queuing nothing. Reads at most ${PREVIEW_MAX_ROWS} rows (the newest of the window); past that \`complete\` is false. Each account may ask for 30 a minute.`,
      tags: ['Activity'],
      role: 'editor',
      requestBody: bodyOf(ref('BulkRetryCreate')),
      responses: {
        '200': json(ref('BulkRetryPreview'), 'The counts; nothing was queued.'),
        ...errors('NotFound', 'TooManyRequests'),
      },
    }),
  },
  '/v1/bulk-retries/{jobId}': {
    get: op({
      operationId: 'getBulkRetry',
      summary: 'Read a bulk retry',
      description: 'Its state and counts so far.',
      tags: ['Activity'],
      role: 'viewer',
      parameters: [jobId],
      responses: { '200': job('The job.'), ...errors('NotFound') },
    }),
  },
  '/v1/bulk-retries/{jobId}/cancel': {
    post: op({
      operationId: 'cancelBulkRetry',
      summary: 'Cancel a bulk retry',
      description:
        'Asks the job to stop; it does within about a second, its state becomes `cancelled` and its counts final. Takes no body.',
      tags: ['Activity'],
      role: 'editor',
      parameters: [jobId],
      responses: {
        '202': job('The job, `cancel_requested: true`.'),
        ...errors('NotFound'),
        ...refused(['job_finished'], '`job_finished`: the job already ended.'),
      },
    }),
  },
};
