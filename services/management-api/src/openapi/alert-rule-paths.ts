import { ACCOUNT_EVENT_KINDS } from '@relay/contracts';
import { CONDITIONS, HISTORY_LENGTH, RULE_LIMITS } from '@relay/alerts';
import type { ConditionField } from '@relay/alerts';
import {
  bool,
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
  ref,
  str,
} from './kit';
import type { Schema } from './kit';

/*
 * Alert rules (docs/alerts.md). A condition's schema is built from its kind's description in
 * @relay/alerts (describe.ts), the same table the validator and the dashboard's form read.
 */

/** A field's schema; `title` is its label, which the dashboard's form shows (it reads this document). */
function fieldSchema(f: ConditionField): Schema {
  if (f.type === 'id')
    return str({ title: f.label, pattern: `^${f.prefix}_[0-9a-hjkmnp-tv-z]{20}$`, description: f.help });
  if (f.type === 'integer')
    return int({ title: f.label, minimum: f.min, maximum: f.max, default: f.default, description: f.help });
  return { title: f.label, ...oneOfValues(f.values, f.help) };
}

function conditionSchema(kind: (typeof ACCOUNT_EVENT_KINDS)[number], asSaved: boolean): Schema {
  const d = CONDITIONS[kind];
  const props: Record<string, Schema> = { kind: { const: kind, description: d.help } };
  const required = ['kind'];
  for (const [name, f] of Object.entries(d.fields)) {
    props[name] = fieldSchema(f);
    // a saved condition has every default filled in
    if ((f.type === 'id' && f.required) || (asSaved && f.type !== 'id')) required.push(name);
  }
  return object(props, required, { title: d.label });
}

const conditions = (asSaved: boolean): Schema =>
  list(
    { oneOf: ACCOUNT_EVENT_KINDS.map((k) => conditionSchema(k, asSaved)) },
    { minItems: 1, maxItems: RULE_LIMITS.maxConditions },
  );

const ruleFields = (asSaved: boolean): Record<string, Schema> => ({
  name: nameField(RULE_LIMITS.nameMax),
  enabled: bool({ default: true, description: 'a disabled rule sends nothing' }),
  target_ids: list(str({ pattern: '^tg_[0-9a-hjkmnp-tv-z]{20}$' }), {
    minItems: 1,
    maxItems: RULE_LIMITS.maxTargets,
    uniqueItems: true,
    description: 'where alerts go: targets of the account, of any kind',
  }),
  conditions: conditions(asSaved),
  cooldown_minutes: int({
    minimum: RULE_LIMITS.cooldownMin,
    maximum: RULE_LIMITS.cooldownMax,
    default: RULE_LIMITS.cooldownDefault,
    description: 'an episode ends when its condition was not seen for this long; one alert per episode',
  }),
});

const delivery = object(
  {
    target_id: str(),
    endpoint_id: nullable(str()),
    event_id: nullable(str({ description: 'the activity row of the alert’s delivery to this target' })),
    error: nullable(str({ description: 'why it was not queued' })),
  },
  ['target_id', 'endpoint_id', 'event_id', 'error'],
);

export const alertRuleSchemas: Record<string, Schema> = {
  AlertRuleInput: object(ruleFields(false), ['name', 'target_ids', 'conditions']),
  AlertRule: object(
    { id: str({ description: '`ar_…`' }), ...ruleFields(true), created_at: dateTime(), updated_at: dateTime() },
    ['id', 'name', 'enabled', 'target_ids', 'conditions', 'cooldown_minutes', 'created_at', 'updated_at'],
  ),
  AlertRuleList: object({ data: list(ref('AlertRule'), { maxItems: RULE_LIMITS.maxRulesPerAccount }) }, ['data']),
  Alert: object(
    {
      id: str({ description: '`al_…`' }),
      rule_id: str(),
      rule_name: str(),
      kind: oneOfValues(ACCOUNT_EVENT_KINDS),
      test: bool(),
      at: dateTime(),
      summary: str(),
      link: str({ description: 'the dashboard view that explains the alert' }),
      endpoint_id: nullable(str()),
      target_id: nullable(str()),
      deliveries: list(delivery),
    },
    ['id', 'rule_id', 'rule_name', 'kind', 'test', 'at', 'summary', 'link', 'endpoint_id', 'target_id', 'deliveries'],
  ),
  AlertList: object({ data: list(ref('Alert'), { maxItems: HISTORY_LENGTH }) }, ['data']),
};

const ruleId = pathParam('ruleId', 'the alert rule id (`ar_…`)');
const body = { required: true, content: { 'application/json': { schema: ref('AlertRuleInput') } } };
const tags = ['Alerts'];

export const alertRulePaths: Record<string, Schema> = {
  '/v1/alert-rules': {
    get: op({
      operationId: 'listAlertRules',
      summary: 'List alert rules',
      description: 'The account’s alert rules, oldest first.',
      tags,
      role: 'viewer',
      responses: { '200': json(ref('AlertRuleList'), 'Every rule of the account.') },
    }),
    post: op({
      operationId: 'createAlertRule',
      summary: 'Add an alert rule',
      description: `What to be told (conditions) and where (targets of the account). Every target and endpoint named must be the account’s. At most ${RULE_LIMITS.maxRulesPerAccount} rules an account (409 \`too_many_alert_rules\`).`,
      tags,
      role: 'editor',
      requestBody: body,
      responses: { '201': json(ref('AlertRule'), 'The rule, defaults filled in.'), ...errors('AlertRulesFull') },
    }),
  },
  '/v1/alert-rules/{ruleId}': {
    get: op({
      operationId: 'getAlertRule',
      summary: 'Read an alert rule',
      tags,
      role: 'viewer',
      parameters: [ruleId],
      responses: { '200': json(ref('AlertRule'), 'The rule.'), ...errors('NotFound') },
    }),
    put: op({
      operationId: 'replaceAlertRule',
      summary: 'Change an alert rule',
      description: 'The whole rule, as when it was created.',
      tags,
      role: 'editor',
      parameters: [ruleId],
      requestBody: body,
      responses: { '200': json(ref('AlertRule'), 'The rule as saved.'), ...errors('NotFound') },
    }),
    delete: op({
      operationId: 'deleteAlertRule',
      summary: 'Delete an alert rule',
      tags,
      role: 'editor',
      parameters: [ruleId],
      responses: { '204': { description: 'Deleted.' }, ...errors('NotFound') },
    }),
  },
  '/v1/alert-rules/{ruleId}/test': {
    post: op({
      operationId: 'testAlertRule',
      summary: 'Send a test alert',
      description:
        'Sends an alert marked as a test about the rule’s first condition to each of its targets, through the normal delivery path (no episode, no hourly rate; at most 10 a minute an account, then 429 `too_many_test_alerts`).',
      tags,
      role: 'editor',
      parameters: [ruleId],
      responses: {
        '202': json(ref('Alert'), 'Queued for delivery; each delivery’s activity row is named.'),
        ...errors('NotFound', 'TooManyRequests'),
      },
    }),
  },
  '/v1/alerts': {
    get: op({
      operationId: 'listAlerts',
      summary: 'Alert history',
      description: `The last ${HISTORY_LENGTH} alerts the account was sent (tests included), newest first, each with the activity rows of its deliveries.`,
      tags,
      role: 'viewer',
      responses: { '200': json(ref('AlertList'), 'Newest first.') },
    }),
  },
};
