import { bool, errors, int, json, list, nullable, object, oneOfValues, op, ref, str } from './kit';
import type { Schema } from './kit';

/*
 * `GET /v1/target-kinds` (transport/target-kind-routes.ts): the kinds' descriptions as data.
 * A field is recursive (objects, lists, variants hold fields), hence the self-reference.
 */

const anyValue: Schema = {};
const field = object(
  {
    name: str(),
    type: { type: 'string', enum: ['string', 'boolean', 'integer', 'number', 'enum', 'object', 'list', 'variant'] },
    label: str(),
    help: str(),
    example: anyValue,
    required: bool(),
    credential: {
      description: 'true: sealed at rest, shown as set, never returned; `{ when }`: so when that sibling switch is on',
      anyOf: [bool(), object({ when: str() }, ['when'])],
    },
    default: anyValue,
    same_as: {
      type: 'string',
      enum: ['name'],
      description: 'the setting is the target’s own field of that name: not asked twice',
    },
    min_length: int(),
    max_length: int(),
    pattern: str({ description: 'a JavaScript regular expression (u flag)' }),
    pattern_message: str({ description: 'the API’s message for a value that does not match `pattern`' }),
    format: { type: 'string', enum: ['email', 'url'] },
    multiline: bool(),
    const: bool(),
    minimum: int(),
    maximum: int(),
    values: list(object({ value: str(), label: str() }, ['value', 'label'])),
    fields: list(ref('TargetKindField')),
    items: ref('TargetKindField'),
    max_items: int(),
    tag: str(),
    variants: list(
      object({ value: str(), label: str(), fields: list(ref('TargetKindField')) }, ['value', 'label', 'fields']),
    ),
  },
  ['name', 'type', 'label', 'required', 'credential'],
  { description: 'one setting; the kind’s own checks (URL forms, header rules) stay on the server' },
);

export const targetKindSchemas: Record<string, Schema> = {
  TargetKindField: field,
  TargetKind: object(
    {
      kind: str({ description: 'stored in the target record, e.g. `webhook`' }),
      channel: str({ description: 'the deliverer queue its deliveries travel on' }),
      ordering: bool({ description: 'whether a target of this kind may set `ordering` (docs/ordering.md)' }),
      label: str(),
      help: str(),
      default_retry_schedule_ms: list(int()),
      default_limits: nullable(
        object(
          { rate: nullable(int()), per: oneOfValues(['second', 'minute']), max_in_flight: nullable(int()) },
          ['rate', 'per', 'max_in_flight'],
          {
            description:
              'the limits a target of this kind follows when it sets none: its platform’s published limit (docs/delivery-limits.md); null: none',
          },
        ),
      ),
      fields: list(ref('TargetKindField')),
    },
    ['kind', 'channel', 'ordering', 'label', 'default_retry_schedule_ms', 'default_limits', 'fields'],
  ),
  TargetKindList: object({ target_fields: list(ref('TargetKindField')), data: list(ref('TargetKind')) }, [
    'target_fields',
    'data',
  ]),
};

export const targetKindPaths: Record<string, Schema> = {
  '/v1/target-kinds': {
    get: op({
      operationId: 'listTargetKinds',
      summary: 'List target kinds',
      description:
        'Every target kind this deployment knows, each setting of its config described as data (type, limits, whether it is a credential, label, help, example), and the settings every target has (`target_fields`). The dashboard draws its target forms from it.',
      tags: ['Targets'],
      role: 'viewer',
      responses: { '200': json(ref('TargetKindList'), 'The kinds, in catalog order.'), ...errors() },
    }),
  },
};
