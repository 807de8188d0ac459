import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { FieldError } from '@relay/contracts';

/*
 * Save-time validation of the endpoint content settings (required headers, body filters, field
 * validation, IP lists, captcha, limits, payload settings), in the shared `FieldError` /
 * `Validation` shape of @relay/contracts.
 */

/** Settings schemas only use fixed, safe patterns, so ajv's default RegExp engine is fine here. */
const ajv = new Ajv({ allErrors: true, strict: true, logger: false });

/** Compiles a settings schema on first use; nothing is compiled at import time. */
export function schemaCheck(schema: object): (input: unknown, at: string) => FieldError[] {
  let validate: ValidateFunction | undefined;
  return (input, at) => {
    validate ??= ajv.compile(schema);
    return validate(input)
      ? []
      : (validate.errors ?? []).map((e) => ({ field: fieldOf(at, e), message: messageOf(e) }));
  };
}

/** `body_filters` + `/1/pattern` → `body_filters[1].pattern`. */
export function joinPath(base: string, segment: string | number): string {
  if (typeof segment === 'number' || /^\d+$/.test(segment)) return `${base}[${segment}]`;
  return base === '' ? segment : `${base}.${segment}`;
}

/** The field an ajv error names, under `base`: `inbound_auth` + `/tokens/1` → `inbound_auth.tokens[1]`. */
export function fieldOf(base: string, error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  if (error.keyword === 'required' && params.missingProperty !== undefined) segments.push(params.missingProperty);
  if (error.keyword === 'additionalProperties' && params.additionalProperty !== undefined)
    segments.push(params.additionalProperty);
  return segments.reduce(joinPath, base);
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

function messageOf(error: ErrorObject): string {
  const params = error.params as { type?: string; allowedValues?: unknown[]; limit?: number };
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'type':
      return `must be ${TYPE_NAMES[params.type ?? ''] ?? params.type}`;
    case 'enum':
      return `must be one of ${(params.allowedValues ?? []).join(', ')}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${params.limit} characters`;
    case 'maxLength':
      return `must be at most ${params.limit} characters`;
    case 'maxItems':
      return `at most ${params.limit} entries`;
    default:
      return error.message ?? 'is invalid';
  }
}
