import { BREAKER_STATES } from '@relay/store';
import {
  CATALOG,
  configInputSchema,
  configViewSchema,
  fieldInputSchema,
  fieldViewSchema,
  RETRY_SCHEDULE_LIMITS,
  TARGET_FIELDS,
} from '@relay/targets';
import { bool, dateTime, int, list, nameField, nullable, object, oneOfValues, ref, str } from './kit';
import type { Schema } from './kit';

/*
 * Targets (spec "Outputs"; docs/targets-webhook.md, docs/targets-chat.md). Each kind's `config`
 * schemas — what a create sends and what the API shows, secrets masked — are derived from the
 * kind's description in the catalog (libs/targets describe/), so this file names no kind: a new
 * kind is in the document the moment it is in the catalog.
 */

const KINDS = CATALOG.entries.map((e) => e.kind);
const pascal = (kind: string): string =>
  kind
    .split(/[_-]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
const inputName = (kind: string): string => `${pascal(kind)}ConfigInput`;
const viewName = (kind: string): string => `${pascal(kind)}ConfigView`;
/** `config` is checked against its kind's schema. */
const configOfKind = (kind: string, schema: string): Schema => ({
  if: { properties: { kind: { const: kind } }, required: ['kind'] },
  then: { properties: { config: ref(schema) } },
});

const retrySchedule = nullable(
  list(int({ minimum: 0, maximum: RETRY_SCHEDULE_LIMITS.maxDelayMs }), {
    maxItems: RETRY_SCHEDULE_LIMITS.maxRetries,
    description: 'delays between attempts in ms; `[]` no retries; null the kind’s default (docs/delivery.md)',
  }),
);
// limits and breaker settings: their schemas derived from their description (TARGET_FIELDS), as a kind's config is
const described = (
  f: (typeof TARGET_FIELDS)['limits'] | (typeof TARGET_FIELDS)['breaker'],
): { input: Schema; view: Schema } => ({
  input: nullable({
    ...configInputSchema({ label: f.label, fields: f.fields }),
    description: `${f.help}; null: ${f === TARGET_FIELDS.limits ? 'the kind’s default' : 'the defaults'}`,
  }),
  view: nullable({ ...configViewSchema({ label: f.label, fields: f.fields }), description: f.label }),
});
const limits = described(TARGET_FIELDS.limits);
const breaker = described(TARGET_FIELDS.breaker);
const breakerState = object(
  { state: oneOfValues([...BREAKER_STATES]), since: dateTime(), reason: str() },
  ['state', 'since', 'reason'],
  {
    description:
      'the circuit breaker: closed (sending), open (failing: held, a probe after the cool-down), half_open (one probe out), paused (by hand); since when and why (docs/delivery-limits.md)',
  },
);
const readOnlyIn: Record<string, Schema> = Object.fromEntries(
  [
    'id',
    'account_id',
    'endpoint_id',
    'flagged',
    'default_retry_schedule_ms',
    'default_limits',
    'breaker_state',
    'created_at',
    'updated_at',
  ].map((f) => [f, { readOnly: true, description: 'read-only: refused in a request' }]),
);
/** from the field's description (libs/targets describe/routing-field.ts), as the API validates it */
const routingInput: Schema = {
  ...fieldInputSchema(TARGET_FIELDS.routing),
  description:
    'which events the target gets (docs/routing.md); null: every event. Refused with 400 `routing` when the endpoint’s payload format has no fields (text, none)',
};
/** from its description (libs/targets describe/ordering-field.ts) */
const orderingInput: Schema = {
  ...fieldInputSchema(TARGET_FIELDS.ordering),
  description:
    'events with the same key delivered one after another in acceptance order (docs/ordering.md); null: no ordering. Refused with 400 `ordering` on a kind that does not support it, and for a payload field when the endpoint’s payload format has no fields',
};
const name = nameField(200, 'trimmed');

const kindSchemas: Record<string, Schema> = Object.fromEntries(
  CATALOG.entries.flatMap((e) => [
    [inputName(e.kind), configInputSchema(e.description)],
    [viewName(e.kind), configViewSchema(e.description)],
  ]),
);

export const targetSchemas: Record<string, Schema> = {
  TargetCreate: object(
    {
      kind: oneOfValues(KINDS),
      name,
      enabled: bool({ description: 'default true' }),
      config: {
        type: 'object',
        description: `the kind's settings (${KINDS.map(inputName).join(', ')} by \`kind\`); each problem is named \`config.<field>\``,
      },
      retry_schedule_ms: retrySchedule,
      limits: limits.input,
      breaker: breaker.input,
      routing: routingInput,
      ordering: orderingInput,
      ...readOnlyIn,
    },
    ['kind', 'name', 'config'],
    { allOf: KINDS.map((k) => configOfKind(k, inputName(k))) },
  ),
  TargetPatch: object(
    {
      name,
      enabled: bool(),
      retry_schedule_ms: retrySchedule,
      limits: limits.input,
      breaker: breaker.input,
      routing: routingInput,
      ordering: orderingInput,
      kind: { description: 'cannot be changed: a new kind is a new target' },
      config: { description: 'cannot be changed: a new config is a new target' },
      ...readOnlyIn,
    },
    [],
  ),
  Target: object(
    {
      id: str({ description: '`tg_…`' }),
      account_id: str(),
      endpoint_id: str(),
      kind: oneOfValues(KINDS),
      name: str(),
      enabled: bool(),
      config: {
        type: 'object',
        description: `the kind's settings as shown, every secret masked (${KINDS.map(viewName).join(', ')} by \`kind\`)`,
      },
      flagged: nullable(
        object({ reason: str(), at: dateTime() }, ['reason', 'at'], {
          description: 'set when deliveries showed the destination is gone (docs/delivery.md "Flagged targets")',
        }),
      ),
      retry_schedule_ms: retrySchedule,
      routing: fieldViewSchema(TARGET_FIELDS.routing),
      ordering: fieldViewSchema(TARGET_FIELDS.ordering),
      default_retry_schedule_ms: nullable(list(int())),
      limits: limits.view,
      default_limits: limits.view,
      breaker: breaker.view,
      breaker_state: breakerState,
      created_at: dateTime(),
      updated_at: dateTime(),
    },
    [
      'id',
      'account_id',
      'endpoint_id',
      'kind',
      'name',
      'enabled',
      'config',
      'flagged',
      'retry_schedule_ms',
      'routing',
      'ordering',
      'default_retry_schedule_ms',
      'limits',
      'default_limits',
      'breaker',
      'breaker_state',
      'created_at',
      'updated_at',
    ],
    // the view is checked against its kind's schema, as a create's config is
    { allOf: KINDS.map((k) => configOfKind(k, viewName(k))) },
  ),
  TargetList: object({ data: list(ref('Target')) }, ['data']),
  HeldKeyList: object(
    {
      ordering: fieldViewSchema(TARGET_FIELDS.ordering),
      data: list(
        object(
          {
            key: str({ description: 'the ordering key' }),
            since: dateTime('when its head first waited'),
            event_id: str({ description: 'the event at its head' }),
            attempt: int({ description: 'the head’s next attempt' }),
            reason: str({ description: '`retrying` (its attempt failed) or the target gate’s hold reason' }),
            stuck: bool({ description: 'waited longer than ORDERING_STUCK_AFTER_MS' }),
          },
          ['key', 'since', 'event_id', 'attempt', 'reason', 'stuck'],
        ),
      ),
    },
    ['ordering', 'data'],
  ),
  ...kindSchemas,
};
