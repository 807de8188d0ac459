import {
  checkPattern,
  fieldPathProblem,
  MAX_FILTER_VALUE_LENGTH,
  MAX_ROUTE_VALUES,
  MAX_ROUTING_RULES,
} from '@relay/endpoints';
import type { CheckContext, Field, Fields, ObjectField } from './field';

/*
 * A target's routing rules (docs/routing.md), described once like every other
 * target setting: the API's validation, the OpenAPI schema, `GET /v1/target-kinds` and the
 * dashboard's rule rows all come from ROUTING_FIELD. The rule model and path syntax are the
 * endpoint's (@relay/endpoints: body-filter kinds, RE2 patterns, field-validation dot paths);
 * @relay/endpoints compileRouting evaluates what this accepts. Whether routing can apply to the
 * endpoint's payload format is checked where the endpoint is known (the management API).
 */

const problem = (check: (value: string) => string | null) => (value: string, ctx: CheckContext) => {
  const message = check(value);
  if (message !== null) ctx.fail(message);
  return undefined;
};

const path: Field = {
  type: 'string',
  label: 'Field path',
  required: true,
  maxLength: 512,
  example: 'type',
  help: 'dot-separated field names of the parsed payload, as in field validation rules (data.object.status)',
  check: problem(fieldPathProblem),
};
const caseInsensitive: Field = { type: 'boolean', label: 'Ignore case' };
const text: Field = {
  type: 'string',
  label: 'Value',
  required: true,
  minLength: 1,
  maxLength: MAX_FILTER_VALUE_LENGTH,
  example: 'order.paid',
};
const pattern: Field = {
  type: 'string',
  label: 'Pattern (RE2)',
  required: true,
  example: '^order\\.',
  help: 'RE2 syntax: linear-time matching, no lookaround or backreferences',
  check: problem(checkPattern),
};
const bound: Field = { type: 'number', label: 'Number', required: true, example: 100 };

const textRule: Fields = { path, value: text, case_insensitive: caseInsensitive };
const patternRule: Fields = { path, pattern, case_insensitive: caseInsensitive };
const numberRule: Fields = { path, value: bound };

const RULE: Field = {
  type: 'variant',
  label: 'Rule',
  tag: 'kind',
  required: true,
  variants: [
    { value: 'equals', label: 'equals', fields: textRule },
    {
      value: 'one_of',
      label: 'is one of',
      fields: {
        path,
        values: {
          type: 'list',
          label: 'Values',
          required: true,
          maxItems: MAX_ROUTE_VALUES,
          items: { ...text, label: 'Value' },
        },
      },
    },
    { value: 'contains', label: 'contains', fields: textRule },
    { value: 'not_contains', label: 'does not contain', fields: textRule },
    { value: 'regex', label: 'matches pattern', fields: patternRule },
    { value: 'not_regex', label: 'does not match pattern', fields: patternRule },
    { value: 'exists', label: 'exists', fields: { path } },
    { value: 'not_exists', label: 'does not exist', fields: { path } },
    { value: 'gt', label: '>', fields: numberRule },
    { value: 'gte', label: '≥', fields: numberRule },
    { value: 'lt', label: '<', fields: numberRule },
    { value: 'lte', label: '≤', fields: numberRule },
  ],
};

export const ROUTING_FIELD: ObjectField = {
  type: 'object',
  label: 'Routing',
  help: 'only events whose payload meets these rules go to this target; unset: every event (docs/routing.md)',
  default: null,
  fields: {
    match: {
      type: 'enum',
      label: 'Send when',
      default: 'all',
      values: [
        { value: 'all', label: 'all rules match' },
        { value: 'any', label: 'any rule matches' },
      ],
    },
    rules: {
      type: 'list',
      label: 'Rules',
      required: true,
      maxItems: MAX_ROUTING_RULES,
      items: RULE,
      check: (rules: unknown[], ctx) =>
        rules.length === 0
          ? ctx.fail('must hold at least one rule (set routing to null to send every event)')
          : undefined,
    },
  },
};
