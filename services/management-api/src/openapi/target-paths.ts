import { errors, json, op, pathParam, ref } from './kit';
import type { Schema } from './kit';

const endpointId = pathParam('endpointId', 'the endpoint id (`ep_…`)');
const targetId = pathParam('targetId', 'the target id (`tg_…`) of this endpoint');
const target = (description: string): Schema => json(ref('Target'), description);

export const targetPaths: Record<string, Schema> = {
  '/v1/endpoints/{endpointId}/targets': {
    post: op({
      operationId: 'createTarget',
      summary: 'Add a target',
      description:
        '`kind`, `name` and the kind’s `config` are required. Every problem of the target and of its config is reported at once. Credentials are sealed before they are stored.',
      tags: ['Targets'],
      role: 'editor',
      parameters: [endpointId],
      requestBody: { required: true, content: { 'application/json': { schema: ref('TargetCreate') } } },
      responses: { '201': target('The target, secrets masked.'), ...errors('NotFound') },
    }),
    get: op({
      operationId: 'listTargets',
      summary: 'List targets',
      description: "The endpoint's targets, oldest first. Configs show no secret value.",
      tags: ['Targets'],
      role: 'viewer',
      parameters: [endpointId],
      responses: { '200': json(ref('TargetList'), 'Every target of the endpoint.'), ...errors('NotFound') },
    }),
  },
  '/v1/endpoints/{endpointId}/targets/{targetId}': {
    get: op({
      operationId: 'getTarget',
      summary: 'Read a target',
      tags: ['Targets'],
      role: 'viewer',
      parameters: [endpointId, targetId],
      responses: { '200': target('The target.'), ...errors('NotFound') },
    }),
    patch: op({
      operationId: 'updateTarget',
      summary: 'Change a target',
      description:
        'Only `name`, `enabled`, `retry_schedule_ms`, `limits`, `breaker`, `routing` and `ordering`: a new kind or config is a new target.',
      tags: ['Targets'],
      role: 'editor',
      parameters: [endpointId, targetId],
      requestBody: { required: true, content: { 'application/json': { schema: ref('TargetPatch') } } },
      responses: { '200': target('The target as saved.'), ...errors('NotFound') },
    }),
    delete: op({
      operationId: 'deleteTarget',
      summary: 'Delete a target',
      tags: ['Targets'],
      role: 'editor',
      parameters: [endpointId, targetId],
      responses: { '204': { description: 'Deleted.' }, ...errors('NotFound') },
    }),
  },
  '/v1/endpoints/{endpointId}/targets/{targetId}/flag': {
    delete: op({
      operationId: 'clearTargetFlag',
      summary: "Clear a target's flag",
      description:
        'Once the destination is fixed: deliveries flow again within the deliverers’ target cache TTL (docs/delivery.md "Flagged targets").',
      tags: ['Targets'],
      role: 'editor',
      parameters: [endpointId, targetId],
      responses: { '200': target('The target, unflagged.'), ...errors('NotFound') },
    }),
  },
  '/v1/endpoints/{endpointId}/targets/{targetId}/held-keys': {
    get: op({
      operationId: 'listHeldKeys',
      summary: "List a target's held ordering keys",
      description:
        'The ordering keys whose head delivery waits now — for its next attempt, or held by the target gate — oldest first, at most 100; `stuck` once one has waited longer than the deliverers’ ORDERING_STUCK_AFTER_MS (docs/ordering.md "Held keys"). Empty for a target that is not ordered.',
      tags: ['Targets'],
      role: 'viewer',
      parameters: [endpointId, targetId],
      responses: { '200': json(ref('HeldKeyList'), 'The target’s ordering and its held keys.'), ...errors('NotFound') },
    }),
  },
  '/v1/endpoints/{endpointId}/targets/{targetId}/pause': {
    post: op({
      operationId: 'pauseTarget',
      summary: "Pause a target's deliveries",
      description:
        'Every delivery to the target is held on the broker (none sent, no attempt used) until it is resumed; `breaker_state` becomes `paused`. Pausing a paused target changes nothing (docs/delivery-limits.md "Pause and resume").',
      tags: ['Targets'],
      role: 'editor',
      parameters: [endpointId, targetId],
      responses: { '200': target('The target, paused.'), ...errors('NotFound') },
    }),
  },
  '/v1/endpoints/{endpointId}/targets/{targetId}/resume': {
    post: op({
      operationId: 'resumeTarget',
      summary: "Resume a paused target's deliveries",
      description:
        'The breaker closes with an empty window; held deliveries come back within a minute. Resuming a target that is not paused changes nothing (an open breaker stays open until its probe succeeds).',
      tags: ['Targets'],
      role: 'editor',
      parameters: [endpointId, targetId],
      responses: { '200': target('The target, resumed.'), ...errors('NotFound') },
    }),
  },
};
