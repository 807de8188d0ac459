import type { ApiKeyRole } from '../domain/roles';

/*
 * Small builders for the OpenAPI 3.1 document (document.ts), so each part reads like the table
 * in docs/management-api.md it stands for. Schemas are plain JSON Schema 2020-12 — the dialect
 * of OpenAPI 3.1 — which ajv validates requests and (in the tests) responses with.
 */

export type Schema = Record<string, unknown>;

/** `#/components/schemas/<name>` */
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/**
 * An object that names every property it may have: a response that grows a field the document
 * does not know fails the tests' response check, and a request with an unknown field is a 400.
 */
export function object(properties: Record<string, Schema>, required: string[] = [], extra: Schema = {}): Schema {
  return { type: 'object', properties, required, additionalProperties: false, ...extra };
}

/** The schema, or null: a type list where the schema is a plain type (clearer errors), else `anyOf`. */
export function nullable(schema: Schema): Schema {
  if (typeof schema.type === 'string' && !('enum' in schema) && !('const' in schema))
    return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

export const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
export const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });

/**
 * Names and labels people read (endpoints, targets, API keys, alert rules, plans): no control
 * characters and no invisible format characters (Unicode Cc, Cf), which would let a name display
 * as something else — U+202E reverses what follows it, U+200B hides a difference. Names stored
 * before this rule are shown escaped (displayText in @relay/contracts).
 */
export const NAME_PATTERN = '^[^\\p{Cc}\\p{Cf}]*$';
export const NAME_PATTERN_MESSAGE =
  'must not contain control characters or invisible format characters (Unicode Cc or Cf, e.g. U+202E, U+200B, U+2066)';
export const nameField = (maxLength: number, description?: string): Schema =>
  str({ minLength: 1, maxLength, pattern: NAME_PATTERN, ...(description ? { description } : {}) });
export const bool = (extra: Schema = {}): Schema => ({ type: 'boolean', ...extra });
export const list = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra });
export const dateTime = (description?: string): Schema => ({
  type: 'string',
  format: 'date-time',
  ...(description ? { description } : {}),
});
export const oneOfValues = (values: readonly string[], description?: string): Schema => ({
  type: 'string',
  enum: [...values],
  ...(description ? { description } : {}),
});

export const json = (schema: Schema, description: string): Schema => ({
  description,
  content: { 'application/json': { schema } },
});

/** Error responses by status, each the shared `Error` body (components.ts). */
export const errors = (...names: string[]): Record<string, Schema> =>
  Object.fromEntries(names.map((n) => [STATUS_OF[n] ?? n, { $ref: `#/components/responses/${n}` }]));

const STATUS_OF: Record<string, string> = {
  BadRequest: '400',
  Unauthorized: '401',
  Forbidden: '403',
  NotFound: '404',
  Conflict: '409',
  AlertRulesFull: '409',
  PayloadTooLarge: '413',
  TooManyRequests: '429',
  InternalError: '500',
  UsageUnavailable: '503',
  GatewayUnavailable: '503',
  ResendUnavailable: '503',
};

export interface OperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** the least API key role the operation needs; absent on the open routes (health, this document) */
  role?: ApiKeyRole;
  parameters?: Schema[];
  requestBody?: Schema;
  responses: Record<string, Schema>;
}

/**
 * One operation. `x-relay-role` is the least role it needs (docs/management-api.md "Roles"):
 * routes enforce it with `operation(<id>)` (transport/operation.ts), and every authenticated
 * operation answers 401 and 403 as the shared responses say. A body or a parameter that does not
 * match the document is a 400 (`validation_failed`) naming each field.
 */
export function op(spec: OperationSpec): Schema {
  const { role, responses, ...rest } = spec;
  if (!role) return { ...rest, security: [], responses: { ...responses, ...errors('InternalError') } };
  const authErrors = errors('Unauthorized', ...(role === 'viewer' ? [] : ['Forbidden']), 'InternalError');
  // a body can be invalid or not JSON; a parameter invalid; a path undecodable (`%ZZ`)
  const badRequest =
    spec.requestBody || spec.parameters?.length ? { '400': { $ref: '#/components/responses/BadRequest' } } : {};
  const tooLarge = spec.requestBody ? errors('PayloadTooLarge') : {};
  return {
    ...rest,
    description: `${spec.description ? `${spec.description}\n\n` : ''}Needs an API key with the **${role}** role or higher.`,
    'x-relay-role': role,
    responses: { ...badRequest, ...tooLarge, ...responses, ...authErrors },
  };
}

export const pathParam = (name: string, description: string): Schema => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});
export const queryParam = (name: string, description: string, schema: Schema): Schema => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});
