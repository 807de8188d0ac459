import { MAX_CODE_CHARS } from '@relay/transform';
import { MAX_DIFF_CHANGES, MAX_PREVIEW_EVENTS } from '../domain/transformation-view';
import { bool, dateTime, errors, int, json, list, nullable, object, op, oneOfValues, pathParam, ref, str } from './kit';
import type { Schema } from './kit';

const endpointId = pathParam('endpointId', 'the endpoint id (`ep_…`)');
const targetId = pathParam('targetId', 'the target id (`tg_…`) of this endpoint');
const version = {
  ...pathParam('version', 'a version number'),
  schema: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' },
};
const code = str({
  minLength: 1,
  maxLength: MAX_CODE_CHARS,
  description: 'JavaScript: a function `(request, context) => request | null` (docs/transformations.md)',
});
const anyJson: Schema = { description: 'any JSON value' };

const versionFields = {
  version: int({ minimum: 1 }),
  saved_by: str({ description: 'the prefix of the API key that saved it' }),
  saved_by_name: nullable(str()),
  saved_at: dateTime(),
  restored_from: nullable(int({ description: 'the version this one restored' })),
};
const request = object(
  {
    method: str(),
    path: str(),
    query: { type: 'object', additionalProperties: anyJson },
    headers: { type: 'object', additionalProperties: str() },
    body: anyJson,
  },
  ['method', 'path', 'query', 'headers', 'body'],
);

export const transformationSchemas: Record<string, Schema> = {
  TransformationVersion: object({ ...versionFields, code }, [...Object.keys(versionFields), 'code']),
  Transformation: object(
    {
      scope: oneOfValues(['endpoint', 'target']),
      scope_id: str(),
      active_version: nullable(int({ description: 'what runs; null: none (removed, or never saved)' })),
      code: nullable(code),
      latest_version: int({ minimum: 0 }),
      versions: list(object(versionFields, Object.keys(versionFields)), { description: 'kept versions, newest first' }),
    },
    ['scope', 'scope_id', 'active_version', 'code', 'latest_version', 'versions'],
  ),
  TransformationSave: object({ code }, ['code']),
  TransformationPreviewInput: object(
    {
      code,
      target_id: str({ description: 'run as this target’s transformation (its context); default: the endpoint’s' }),
      event_ids: list(str(), {
        minItems: 1,
        maxItems: MAX_PREVIEW_EVENTS,
        description: 'these events; default: the newest',
      }),
      limit: int({
        minimum: 1,
        maximum: MAX_PREVIEW_EVENTS,
        description: 'how many of the newest accepted events (5)',
      }),
    },
    ['code'],
  ),
  TransformationPreview: object(
    {
      data: list(
        object(
          {
            event_id: str(),
            input: request,
            output: nullable(request),
            dropped: bool(),
            diff: nullable(
              object(
                {
                  changes: list(object({ path: str(), before: anyJson, after: anyJson }, ['path']), {
                    maxItems: MAX_DIFF_CHANGES,
                  }),
                  total: int({ minimum: 0 }),
                },
                ['changes', 'total'],
              ),
            ),
            logs: list(str()),
            duration_ms: { type: 'number', minimum: 0 },
            error: nullable(str()),
            line: nullable(int()),
          },
          ['event_id', 'error'],
        ),
      ),
    },
    ['data'],
  ),
};

function scopePaths(op_: 'Endpoint' | 'Target', base: string, params: Schema[]): Record<string, Schema> {
  const what = op_ === 'Endpoint' ? 'the endpoint’s transformation (before fan-out)' : 'the target’s transformation';
  const tags = ['Transformations'];
  return {
    [base]: {
      get: op({
        operationId: `get${op_}Transformation`,
        summary: `Read ${what}`,
        description: 'The active code and version, and the versions kept (without their code).',
        tags,
        role: 'viewer',
        parameters: params,
        responses: { '200': json(ref('Transformation'), 'The transformation.'), ...errors('NotFound') },
      }),
      put: op({
        operationId: `save${op_}Transformation`,
        summary: `Save ${what} as a new version`,
        description: 'Each save is the next numbered version, active at once; audited.',
        tags,
        role: 'editor',
        parameters: params,
        requestBody: { required: true, content: { 'application/json': { schema: ref('TransformationSave') } } },
        responses: { '201': json(ref('TransformationVersion'), 'The version saved.'), ...errors('NotFound') },
      }),
      delete: op({
        operationId: `remove${op_}Transformation`,
        summary: `Remove ${what}`,
        description: 'Nothing runs any more; the versions stay and can be restored.',
        tags,
        role: 'editor',
        parameters: params,
        responses: { '204': { description: 'Removed (or there was none).' }, ...errors('NotFound') },
      }),
    },
    [`${base}/versions/{version}`]: {
      get: op({
        operationId: `get${op_}TransformationVersion`,
        summary: `Read one version of ${what}`,
        tags,
        role: 'viewer',
        parameters: [...params, version],
        responses: { '200': json(ref('TransformationVersion'), 'The version with its code.'), ...errors('NotFound') },
      }),
    },
    [`${base}/versions/{version}/restore`]: {
      post: op({
        operationId: `restore${op_}Transformation`,
        summary: `Restore a version of ${what}`,
        description:
          'Its code is saved again as the newest version (`restored_from` names it), active at once; audited.',
        tags,
        role: 'editor',
        parameters: [...params, version],
        responses: { '201': json(ref('TransformationVersion'), 'The new version.'), ...errors('NotFound') },
      }),
    },
  };
}

export const transformationPaths: Record<string, Schema> = {
  ...scopePaths('Endpoint', '/v1/endpoints/{endpointId}/transformation', [endpointId]),
  ...scopePaths('Target', '/v1/endpoints/{endpointId}/targets/{targetId}/transformation', [endpointId, targetId]),
  '/v1/endpoints/{endpointId}/transformations/preview': {
    post: op({
      operationId: 'previewTransformation',
      summary: 'Try a draft on stored requests',
      description:
        'Runs `code` (not saved) on the endpoint’s newest accepted requests, or on `event_ids`, in the sandbox: per request the input, the output (null: dropped), a diff, the console lines, the time and any error with its line. Delivers nothing.',
      tags: ['Transformations'],
      role: 'editor',
      parameters: [endpointId],
      requestBody: { required: true, content: { 'application/json': { schema: ref('TransformationPreviewInput') } } },
      responses: { '200': json(ref('TransformationPreview'), 'One result per request.'), ...errors('NotFound') },
    }),
  },
};
