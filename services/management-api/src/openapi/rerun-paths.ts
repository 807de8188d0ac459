import { BULK_RERUN_MAX_ROWS, MAX_BULK_RERUN } from '../domain/bulk-rerun';
import { errorBody } from './components';
import { bool, dateTime, errors, int, json, list, nullable, object, oneOfValues, op, ref, str } from './kit';
import type { Schema } from './kit';

/**
 * Bulk re-runs of quarantined requests (docs/management-api.md "Bulk re-run"): counted first
 * (`previewBulkRerun`), then run (`createBulkRerun`).
 */
const filter = object(
  { endpoint_id: nullable(str()), from: dateTime(), to: dateTime() },
  ['endpoint_id', 'from', 'to'],
  { description: 'the window as applied (defaults filled in)' },
);
const body: Schema = {
  required: false,
  content: { 'application/json': { schema: ref('BulkRerunCreate') } },
};

export const rerunSchemas: Record<string, Schema> = {
  BulkRerunCreate: object({
    endpoint_id: nullable(
      str({ minLength: 1, maxLength: 128, description: 'without it every endpoint of the account' }),
    ),
    from: str({ description: 'ISO 8601; default `to` − 24 h; never before the retention period' }),
    to: str({ description: 'ISO 8601; default now' }),
  }),
  BulkRerunPreview: object(
    {
      filter,
      requests: int({ minimum: 0, description: 'quarantined requests a bulk re-run of this body would run now' }),
      complete: bool({
        description: `false when the window holds more than \`max_requests\` of them (or more than ${BULK_RERUN_MAX_ROWS} refusals to look through): \`requests\` is a floor, and a bulk re-run of it is refused (409 \`rerun_set_too_large\`)`,
      }),
      max_requests: int({ minimum: 1, description: 'most quarantined requests one bulk re-run takes' }),
    },
    ['filter', 'requests', 'complete', 'max_requests'],
  ),
  BulkRerun: object(
    {
      filter,
      requests: int({ minimum: 0, description: 'quarantined requests run' }),
      accepted: int({ minimum: 0 }),
      replayed: int({ minimum: 0, description: 'already re-run and accepted: answered with that event' }),
      refused: int({ minimum: 0, description: 'refused again: each a new row, quarantined again' }),
      payload_not_stored: int({ minimum: 0, description: 'kept, but not in the log (yet): not run' }),
      results: list(
        object(
          {
            event_id: str({ description: 'the quarantined request' }),
            result: oneOfValues(['accepted', 'replayed', 'refused', 'payload_not_stored']),
            new_event_id: nullable(str({ description: 'the re-run’s event (refused: its row); null when not run' })),
            code: nullable(str({ description: 'refused: the `code` a sender would have got (docs/ingest.md)' })),
          },
          ['event_id', 'result', 'new_event_id', 'code'],
        ),
        { description: 'oldest first, in the order they were run' },
      ),
    },
    ['filter', 'requests', 'accepted', 'replayed', 'refused', 'payload_not_stored', 'results'],
  ),
};

export const rerunPaths: Record<string, Schema> = {
  '/v1/reruns/preview': {
    post: op({
      operationId: 'previewBulkRerun',
      summary: 'Count the quarantined requests a bulk re-run would run',
      description: `Counts the quarantined requests (row \`quarantine\`: \`kept\`) of an endpoint (or every endpoint) in a window, running nothing. Each account may ask for 30 bulk re-runs and previews a minute.`,
      tags: ['Activity'],
      role: 'editor',
      requestBody: body,
      responses: {
        '200': json(ref('BulkRerunPreview'), 'The count; nothing was run.'),
        ...errors('NotFound', 'TooManyRequests'),
      },
    }),
  },
  '/v1/reruns': {
    post: op({
      operationId: 'createBulkRerun',
      summary: 'Re-run the quarantined requests of a window',
      description: `Re-runs every quarantined request of the filter (as \`POST /v1/activity/{eventId}/rerun\` does one), oldest first, one after another within this request, and answers what became of each. At most ${MAX_BULK_RERUN}: a window holding more is refused whole before anything runs. Count first with \`POST /v1/reruns/preview\`. A request already re-run and accepted is answered with that event (\`replayed\`), so running a window again is safe.`,
      tags: ['Activity'],
      role: 'editor',
      requestBody: body,
      responses: {
        '200': json(ref('BulkRerun'), 'What became of each.'),
        ...errors('NotFound'),
        '409': json(
          errorBody(['rerun_set_too_large'], 'Nothing was run.'),
          `\`rerun_set_too_large\`: more than ${MAX_BULK_RERUN} quarantined requests in the window (or more than ${BULK_RERUN_MAX_ROWS} refusals to look through): narrow it with \`endpoint_id\`, \`from\` or \`to\`.`,
        ),
        ...errors('TooManyRequests', 'GatewayUnavailable'),
      },
    }),
  },
};
