import { errors, int, json, op, pathParam, queryParam, ref } from './kit';
import type { Schema } from './kit';

const endpointId = pathParam('endpointId', 'the endpoint id (`ep_…`); another account’s endpoint is not found');
const endpoint = (description: string): Schema => json(ref('Endpoint'), description);

/** The four manual controls (spec "States and transitions"), each its own operation. */
const action = (name: string, verb: string, description: string): Schema => ({
  post: op({
    operationId: `${name}Endpoint`,
    summary: `${verb} an endpoint`,
    description: `${description} Takes no body. When the control changes, one audit row is written and the gateways are told; repeating it changes nothing (200, no new row).`,
    tags: ['Endpoints'],
    role: 'editor',
    parameters: [endpointId],
    responses: { '200': endpoint('The endpoint as it is now.'), ...errors('NotFound') },
  }),
});

export const endpointPaths: Record<string, Schema> = {
  '/v1/endpoints': {
    post: op({
      operationId: 'createEndpoint',
      summary: 'Create an endpoint',
      description:
        'Only `name` is required. Every setting is validated as it will be stored; every problem is reported at once.',
      tags: ['Endpoints'],
      role: 'editor',
      requestBody: { required: true, content: { 'application/json': { schema: ref('EndpointCreate') } } },
      responses: { '201': endpoint('The endpoint, secrets redacted.') },
    }),
    get: op({
      operationId: 'listEndpoints',
      summary: 'List endpoints',
      description: "The account's endpoints, oldest first.",
      tags: ['Endpoints'],
      role: 'viewer',
      responses: { '200': json(ref('EndpointList'), 'Every endpoint of the account.') },
    }),
  },
  '/v1/endpoints/{endpointId}': {
    get: op({
      operationId: 'getEndpoint',
      summary: 'Read an endpoint',
      tags: ['Endpoints'],
      role: 'viewer',
      parameters: [endpointId],
      responses: { '200': endpoint('The endpoint.'), ...errors('NotFound') },
    }),
    patch: op({
      operationId: 'updateEndpoint',
      summary: 'Change settings',
      description:
        'Each setting sent replaces the stored one as a whole; the others stay. Checked against the revision read: a concurrent change makes it 409. Sending `enabled` or `paused` with a new value is audited like the matching action.',
      tags: ['Endpoints'],
      role: 'editor',
      parameters: [endpointId],
      requestBody: { required: true, content: { 'application/json': { schema: ref('EndpointPatch') } } },
      responses: { '200': endpoint('The endpoint as saved.'), ...errors('NotFound', 'Conflict') },
    }),
    delete: op({
      operationId: 'deleteEndpoint',
      summary: 'Delete an endpoint',
      description: 'Deletes the endpoint and its targets. Its audit history stays.',
      tags: ['Endpoints'],
      role: 'editor',
      parameters: [endpointId],
      responses: { '204': { description: 'Deleted.' }, ...errors('NotFound') },
    }),
  },
  '/v1/endpoints/{endpointId}/pause': action(
    'pause',
    'Pause',
    'The manual pause: requests get 503 `endpoint_unavailable` until it is resumed.',
  ),
  '/v1/endpoints/{endpointId}/resume': action(
    'resume',
    'Resume',
    'Ends the manual pause only; an active maintenance window still pauses the endpoint.',
  ),
  '/v1/endpoints/{endpointId}/disable': action(
    'disable',
    'Disable',
    'Enabled off: requests get 404 and leave no activity row.',
  ),
  '/v1/endpoints/{endpointId}/enable': action('enable', 'Enable', 'Enabled on.'),
  '/v1/endpoints/{endpointId}/audit': {
    get: op({
      operationId: 'listEndpointAudit',
      summary: 'Audit history of an endpoint',
      description:
        'Every change of the endpoint, newest first: its creation, settings saved (field names; a secret only as changed; maintenance windows too), manual enable, disable, pause and resume, its targets created, changed, deleted and their flag cleared — with who, when and from where. Scheduled pauses are never recorded (spec).',
      tags: ['Endpoints'],
      role: 'viewer',
      parameters: [
        endpointId,
        queryParam('limit', 'rows per page', int({ minimum: 1, maximum: 200, default: 50 })),
        queryParam('before', 'the `next_before` of the previous page', { type: 'string' }),
      ],
      responses: { '200': json(ref('EndpointAuditPage'), 'One page.'), ...errors('NotFound') },
    }),
  },
};
