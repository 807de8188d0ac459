import { AUDIT_ACTIONS } from '@relay/store';
import { API_KEY_ROLES } from '../domain/roles';
import {
  dateTime,
  errors,
  int,
  json,
  list,
  nameField,
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
 * What belongs to the account rather than to one endpoint: its usage (spec "Other
 * interfaces"), its plan, its API keys and their roles, and the account's audit history.
 */

/** Bounds of a plan (docs/management-api.md "Plans"). */
export const PLAN_LIMITS = {
  maxMonthlyEvents: 1_000_000_000_000,
  minPayloadBytes: 1024,
  maxPayloadBytes: 104_857_600,
} as const;

const plan = object(
  {
    name: nameField(100),
    monthly_accepted_events: int({
      minimum: 0,
      maximum: PLAN_LIMITS.maxMonthlyEvents,
      description: 'accepted events per UTC calendar month; then 429 QUOTA_EXCEEDED. 0 accepts none',
    }),
    payload_limit_bytes: int({
      minimum: PLAN_LIMITS.minPayloadBytes,
      maximum: PLAN_LIMITS.maxPayloadBytes,
      description:
        'the largest payload accepted; larger is 413 PAYLOAD_TOO_LARGE. The gateway never reads more than its MAX_BODY_BYTES (1 MiB by default), whatever the plan says',
    }),
  },
  ['name', 'monthly_accepted_events', 'payload_limit_bytes'],
);
const role = oneOfValues(API_KEY_ROLES, 'viewer < editor < admin < owner (docs/management-api.md "Roles")');
const apiKey: Record<string, Schema> = {
  id: str({ description: '`key_…`: what revoking names' }),
  prefix: str({ description: 'the first 7 characters of the key (`rk_AbCd`); the actor in audit rows' }),
  role,
  name: nullable(str()),
  created_by: nullable(str({ description: 'the prefix of the key that created it; null for the bootstrap command' })),
  created_at: dateTime(),
  last_used_at: nullable(dateTime('when it last authenticated a request, to the minute; null if never')),
};
const keyNames = Object.keys(apiKey);
const page = [
  queryParam('limit', 'rows per page', int({ minimum: 1, maximum: 200, default: 50 })),
  queryParam('before', 'the `next_before` of the previous page', str()),
];

export const auditSchemas: Record<string, Schema> = {
  AuditRow: auditRow(),
};

export const accountSchemas: Record<string, Schema> = {
  Plan: plan,
  PlanPatch: object(plan.properties as Record<string, Schema>, [], {
    description: 'The limits to change; the others stay.',
  }),
  AccountPlan: object({ account_id: str(), plan: ref('Plan') }, ['account_id', 'plan']),
  Usage: object(
    {
      account_id: str(),
      plan: ref('Plan'),
      period: object(
        {
          month: str({ description: 'YYYY-MM (UTC)' }),
          start: dateTime(),
          end: dateTime('exclusive: when the count starts again'),
        },
        ['month', 'start', 'end'],
      ),
      accepted_events: int({ minimum: 0 }),
      limit: int({ minimum: 0, description: 'repeats plan.monthly_accepted_events' }),
      remaining: int({ minimum: 0, description: 'max(0, limit - accepted_events)' }),
    },
    ['account_id', 'plan', 'period', 'accepted_events', 'limit', 'remaining'],
  ),
  ApiKeyCreate: object({ role, name: nameField(100, 'a label, e.g. "CI deploys"') }, ['role']),
  ApiKey: object(apiKey, keyNames),
  ApiKeyCreated: object(
    {
      ...apiKey,
      secret: str({ description: 'the key itself (`rk_…`): shown this once, stored only as its SHA-256 digest' }),
    },
    [...keyNames, 'secret'],
  ),
  ApiKeyList: object({ data: list(ref('ApiKey')) }, ['data']),
  DailyUsage: object(
    {
      account_id: str(),
      period: object({ month: str(), start: dateTime(), end: dateTime() }, ['month', 'start', 'end']),
      limit: int({ minimum: 0, description: "the plan's monthly accepted events" }),
      accepted_events: int({ minimum: 0, description: 'the month so far (the quota counter)' }),
      days: list(
        object({ date: str({ description: 'YYYY-MM-DD (UTC)' }), accepted_events: int({ minimum: 0 }) }, [
          'date',
          'accepted_events',
        ]),
        { maxItems: 31 },
      ),
      endpoints: list(
        object(
          {
            endpoint_id: str(),
            name: nullable(str({ description: 'null: deleted' })),
            accepted_events: int({ minimum: 0 }),
            days: list(int({ minimum: 0 }), { maxItems: 31, description: 'aligned with the top-level `days`' }),
          },
          ['endpoint_id', 'name', 'accepted_events', 'days'],
        ),
      ),
      unattributed: int({ minimum: 0 }),
    },
    ['account_id', 'period', 'limit', 'accepted_events', 'days', 'endpoints', 'unattributed'],
  ),
  AccountAuditPage: object({ data: list(ref('AuditRow')), next_before: nullable(dateTime()) }, ['data', 'next_before']),
};

const usage: Schema = {
  get: op({
    operationId: 'getUsage',
    summary: 'Current usage',
    description:
      'Accepted events of the current UTC calendar month against the plan (spec "Other interfaces": readable by account owner or administrator). `Cache-Control: no-store`.',
    tags: ['Account'],
    role: 'admin',
    responses: { '200': json(ref('Usage'), 'The usage.'), ...errors('NotFound', 'UsageUnavailable') },
  }),
};

export const accountPaths: Record<string, Schema> = {
  '/v1/billing/usage/daily': {
    get: op({
      operationId: 'getDailyUsage',
      summary: 'Usage over time: per day and per endpoint',
      description:
        'Accepted events of the current UTC calendar month per day (from the 1st to today) and per endpoint, against the plan — from the counters the gateway increments as it accepts (never a scan of the activity log). `unattributed`: events the monthly counter holds without a day (counted per gateway process while Redis was unreachable). Endpoints without events this month are not listed; a deleted endpoint keeps its counts with `name: null`. `Cache-Control: no-store`.',
      tags: ['Account'],
      role: 'admin',
      responses: { '200': json(ref('DailyUsage'), 'The usage.'), ...errors('NotFound', 'UsageUnavailable') },
    }),
  },
  '/billing/usage': usage,
  '/v1/billing/usage': {
    ...usage,
    get: { ...(usage.get as Schema), operationId: 'getUsageV1', summary: 'Current usage (also at /billing/usage)' },
  },
  '/v1/account/plan': {
    get: op({
      operationId: 'getPlan',
      summary: "The account's plan",
      tags: ['Account'],
      role: 'owner',
      responses: { '200': json(ref('AccountPlan'), 'The plan.'), ...errors('NotFound') },
    }),
    patch: op({
      operationId: 'updatePlan',
      summary: "Change the account's plan",
      description:
        'Sets the limits sent. Audited (`plan_changed`, before and after). Every gateway enforces the new limits within a second: the change is announced to their caches.',
      tags: ['Account'],
      role: 'owner',
      requestBody: { required: true, content: { 'application/json': { schema: ref('PlanPatch') } } },
      responses: { '200': json(ref('AccountPlan'), 'The plan as saved.'), ...errors('NotFound') },
    }),
  },
  '/v1/api-keys': {
    post: op({
      operationId: 'createApiKey',
      summary: 'Create an API key',
      description:
        'The response carries the key (`secret`) once; only its digest is stored. An admin key creates keys below owner; an owner key any. Audited (`key_created`).',
      tags: ['API keys'],
      role: 'admin',
      requestBody: { required: true, content: { 'application/json': { schema: ref('ApiKeyCreate') } } },
      responses: { '201': json(ref('ApiKeyCreated'), 'The key, with its secret — shown this once.') },
    }),
    get: op({
      operationId: 'listApiKeys',
      summary: 'List API keys',
      description: "The account's keys, oldest first: prefix, role, name, created, last used. Never a secret.",
      tags: ['API keys'],
      role: 'admin',
      responses: { '200': json(ref('ApiKeyList'), 'Every key.') },
    }),
  },
  '/v1/api-keys/{keyId}': {
    delete: op({
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key',
      description:
        'The key is refused from the next request on, by every management-api process. An admin key revokes keys below owner; an owner key any — but not the last owner key (409 `last_owner_key`). Audited (`key_revoked`).',
      tags: ['API keys'],
      role: 'admin',
      parameters: [pathParam('keyId', 'the key id (`key_…`)')],
      responses: {
        '204': { description: 'Revoked.' },
        ...errors('NotFound'),
        '409': json(
          object({ code: { type: 'string', const: 'last_owner_key' }, message: str() }, ['code', 'message']),
          '`last_owner_key`: the account would have no owner key left.',
        ),
      },
    }),
  },
  '/v1/audit': {
    get: op({
      operationId: 'listAccountAudit',
      summary: "The account's audit history",
      description:
        "Every change of configuration in the account, newest first: endpoint settings (field names; a secret only as changed), states, targets, API keys created and revoked, plan changes — with who (key prefix and name), when and from where. `endpoint_id` keeps one endpoint's rows, also after it was deleted. Rows are kept as long as the account (never expired).",
      tags: ['Account'],
      role: 'admin',
      parameters: [...page, queryParam('endpoint_id', 'only the rows of this endpoint', str({ maxLength: 64 }))],
      responses: { '200': json(ref('AccountAuditPage'), 'One page.') },
    }),
  },
};

/** One audit row, as both audit routes show it. `details` never holds a secret's value. */
function auditRow(): Schema {
  return object(
    {
      id: str(),
      action: oneOfValues([...AUDIT_ACTIONS]),
      actor: str({
        description:
          'the prefix of the API key that made the change (a dashboard session: its key), or the id (`mem_…`) of the member who made it; `operator` for the bootstrap and plan commands',
      }),
      actor_name: nullable(
        str({
          description:
            'the name of that key, or the member as `Name <email>` (the address alone when the provider gave no name)',
        }),
      ),
      source_ip: nullable(str({ description: 'the address the request came from; null for the operator commands' })),
      at: dateTime(),
      endpoint_id: nullable(str({ description: 'endpoint and target changes' })),
      key_id: nullable(str({ description: 'key actions' })),
      details: nullable({
        type: 'object',
        description:
          'What changed, never a value of a secret. `endpoint_created`/`endpoint_updated`: `fields` (the settings set, by name) and `secrets_changed` (those of them holding secrets: shown as changed only); `target_*`: `target_id`, `name` (and `kind`, or `fields` for an update); key actions: `role`, `prefix`, `name`; `plan_changed`: `before`, `after`.',
        additionalProperties: true,
      }),
    },
    ['id', 'action', 'actor', 'actor_name', 'source_ip', 'at', 'endpoint_id', 'key_id', 'details'],
  );
}
