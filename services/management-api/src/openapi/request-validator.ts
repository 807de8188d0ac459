import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FieldError } from '@relay/contracts';
import type { ApiKeyRole } from '../domain/roles';
import type { OpenApiDocument } from './document';
import { NAME_PATTERN, NAME_PATTERN_MESSAGE } from './kit';
import type { Schema } from './kit';
import { uncarriableFields } from './string-safety';

/*
 * Validates requests from the OpenAPI document itself: each operation's parameters and JSON
 * body against the schemas the document declares, with ajv's JSON Schema 2020-12 validator —
 * the dialect of OpenAPI 3.1. Errors come out in Relay's `FieldError` shape, worded like the
 * settings validators' ("is required", "is not a known field", "must be one of …"), and never
 * repeat a submitted value.
 */

/** The id the document is added to ajv under: a schema's place is `${DOC_ID}#/<pointer>`. */
export const DOC_ID = 'relay-openapi.json';
const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'] as const;

export interface OperationInfo {
  operationId: string;
  method: string;
  /** the document's path template, `/v1/endpoints/{endpointId}` */
  path: string;
  /** the least API key role it needs; undefined for the open routes */
  role: ApiKeyRole | undefined;
}

export interface RequestParts {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** the parsed JSON body; undefined when none was sent */
  body: unknown;
  /** a body came that is not JSON (another Content-Type): never read as "no body" */
  bodyNotJson?: boolean;
}

interface Compiled {
  info: OperationInfo;
  path: Array<{ name: string; validate: ValidateFunction; schema: Schema }>;
  query: Array<{ name: string; validate: ValidateFunction; schema: Schema }>;
  body: { validate: ValidateFunction; readOnly: Set<string> } | null;
}

/** A JSON pointer's segments, escaped and joined (without the leading `/`). */
export const pointer = (...segments: string[]): string =>
  segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * An ajv holding the document under DOC_ID, so a `$ref` into it compiles. The document's own
 * keywords are not schema keywords; only the schemas its refs name are compiled.
 */
export function documentAjv(doc: OpenApiDocument, options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictTypes: false,
    discriminator: true,
    logger: false,
    ...options,
  });
  addFormats(ajv);
  ajv.addVocabulary([
    'openapi',
    'info',
    'servers',
    'security',
    'tags',
    'paths',
    'components',
    'webhooks',
    'jsonSchemaDialect',
    'externalDocs',
  ]);
  ajv.addSchema(doc as unknown as Schema, DOC_ID);
  return ajv;
}

export interface RequestValidator {
  operation(operationId: string): OperationInfo;
  operations(): OperationInfo[];
  /** Every problem of the request, at once; [] when it matches the document. */
  validate(operationId: string, request: RequestParts): FieldError[];
}

export function createRequestValidator(doc: OpenApiDocument): RequestValidator {
  const ajv = documentAjv(doc, { verbose: true });
  const resolve = (schema: Schema): Schema => resolveRef(doc, schema);
  const compile = (...at: string[]): ValidateFunction => ajv.compile({ $ref: `${DOC_ID}#/${pointer(...at)}` });

  // An operation's validators are compiled on its first request: a process (or a test's app)
  // pays only for the operations it serves, not for the whole document at start.
  const operations = new Map<string, { info: OperationInfo; compiled: () => Compiled }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const operationId = String(op.operationId);
      const info: OperationInfo = { operationId, method, path, role: op['x-relay-role'] as ApiKeyRole | undefined };
      let compiled: Compiled | undefined;
      operations.set(operationId, { info, compiled: () => (compiled ??= compileOperation(info, op)) });
    }
  }

  function compileOperation(info: OperationInfo, op: Schema): Compiled {
    const { path, method } = info;
    const params = ((op.parameters as Schema[] | undefined) ?? []).map((p, i) => ({
      name: String(p.name),
      in: String(p.in),
      validate: compile('paths', path, method, 'parameters', String(i), 'schema'),
      schema: resolve(p.schema as Schema),
    }));
    const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content?.[
      'application/json'
    ];
    const body = content
      ? {
          validate: compile('paths', path, method, 'requestBody', 'content', 'application/json', 'schema'),
          readOnly: readOnlyProperties(resolve(content.schema), resolve),
        }
      : null;
    return {
      info,
      path: params.filter((p) => p.in === 'path'),
      query: params.filter((p) => p.in === 'query'),
      body,
    };
  }

  const get = (operationId: string) => {
    const o = operations.get(operationId);
    if (!o) throw new Error(`operation ${operationId} is not in the OpenAPI document`);
    return o;
  };

  return {
    operation: (operationId) => get(operationId).info,
    operations: () => [...operations.values()].map((o) => o.info),
    validate(operationId, request) {
      const c = get(operationId).compiled();
      // strings the store or a header cannot carry, in any part of the request a handler reads (string-safety.ts)
      const errors: FieldError[] = [
        ...c.path.flatMap((p) => uncarriableFields(request.params[p.name], p.name)),
        ...c.query.flatMap((p) => uncarriableFields(request.query[p.name], p.name)),
        ...(c.body && !request.bodyNotJson ? uncarriableFields(request.body, '') : []),
      ];
      for (const p of c.path) errors.push(...check(p.validate, request.params[p.name], p.name, resolve));
      for (const p of c.query) {
        const raw = request.query[p.name];
        // an empty parameter is the same as none (`?status=` lists everything)
        if (raw === undefined || raw === '') continue;
        errors.push(...check(p.validate, coerce(raw, p.schema), p.name, resolve));
      }
      if (c.body && request.bodyNotJson)
        errors.push({ field: '(body)', message: 'must be a JSON object sent with Content-Type: application/json' });
      else if (c.body) {
        const body = request.body === undefined ? {} : request.body;
        errors.push(...check(c.body.validate, body, '', resolve));
        if (isRecord(body))
          for (const key of Object.keys(body))
            if (c.body.readOnly.has(key)) errors.push({ field: key, message: 'is read-only' });
      }
      return firstPerField(errors);
    },
  };
}

/** A query value is a string; a parameter declared as a number or boolean reads it as one. */
function coerce(raw: unknown, schema: Schema): unknown {
  if (typeof raw !== 'string') return raw;
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

function readOnlyProperties(schema: Schema, resolve: (s: Schema) => Schema): Set<string> {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  return new Set(
    Object.entries(props)
      .filter(([, s]) => resolve(s).readOnly === true)
      .map(([k]) => k),
  );
}

/** The schema a `$ref` chain into the document ends at (the schema itself when it has none). */
export function resolveRef(doc: OpenApiDocument, schema: Schema): Schema {
  let s = schema;
  for (let hops = 0; typeof s.$ref === 'string' && hops < 10; hops++) {
    const path = (s.$ref as string).replace(/^#\//, '').split('/');
    s = path.reduce<any>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc) as Schema;
  }
  return s;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function check(validate: ValidateFunction, value: unknown, base: string, resolve: (s: Schema) => Schema): FieldError[] {
  if (validate(value)) return [];
  const errors = relevant(validate.errors ?? []);
  return errors.map((e) => ({ field: fieldOf(base, e), message: messageOf(e, resolve) }));
}

/**
 * Drops what only restates another error: "or it could be null" (`type: null` inside an anyOf);
 * the anyOf / oneOf summary when a branch's own errors say more at the same place or deeper; a
 * branch's wrong-type error when another branch got further into the value. Wrong-type errors
 * of several branches at one place become one ("must be a string or a JSON object").
 */
function relevant(errors: ErrorObject[]): ErrorObject[] {
  // (a branch behind a $ref has its own schema path, so any wrong-type error may be a branch's)
  const deeper = (e: ErrorObject, all: ErrorObject[]): boolean =>
    all.some((o) => o.instancePath.startsWith(`${e.instancePath}/`) && o.keyword !== 'type');
  // `if`/`then` only says a `then` failed; the failing field's own error is there too
  let kept = errors.filter(
    (e) => e.keyword !== 'if' && !(e.keyword === 'type' && (e.params as { type?: unknown }).type === 'null'),
  );
  kept = kept.filter((e) => !(e.keyword === 'type' && deeper(e, kept)));
  kept = kept.filter((e) => {
    if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf') return true;
    return !kept.some(
      (o) =>
        o !== e &&
        o.keyword !== 'anyOf' &&
        o.keyword !== 'oneOf' &&
        (o.instancePath === e.instancePath || o.instancePath.startsWith(`${e.instancePath}/`)),
    );
  });
  const merged = new Map<string, ErrorObject>();
  return kept.flatMap((e) => {
    if (e.keyword !== 'type') return [e];
    const first = merged.get(e.instancePath);
    const types = ([] as string[]).concat((e.params as { type: string | string[] }).type);
    if (!first) {
      const copy = { ...e, params: { type: types } };
      merged.set(e.instancePath, copy);
      return [copy];
    }
    (first.params as { type: string[] }).type.push(
      ...types.filter((t) => !(first.params as { type: string[] }).type.includes(t)),
    );
    return [];
  });
}

/** `inbound_auth` + `/tokens/1` → `inbound_auth.tokens[1]`; the body itself is `(body)`. */
export function fieldOf(base: string, error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as { missingProperty?: string; additionalProperty?: string; tag?: string };
  if (error.keyword === 'required' && params.missingProperty !== undefined) segments.push(params.missingProperty);
  if (error.keyword === 'additionalProperties' && params.additionalProperty !== undefined)
    segments.push(params.additionalProperty);
  if (error.keyword === 'discriminator' && params.tag !== undefined) segments.push(params.tag);
  const field = segments.reduce((at, s) => (/^\d+$/.test(s) ? `${at}[${s}]` : at === '' ? s : `${at}.${s}`), base);
  return field === '' ? '(body)' : field;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'a list',
  null: 'null',
};

function messageOf(error: ErrorObject, resolve: (s: Schema) => Schema): string {
  const params = error.params as {
    type?: string | string[];
    allowedValues?: unknown[];
    allowedValue?: unknown;
    limit?: number;
    format?: string;
    tagName?: string;
  };
  const parent = (error.parentSchema ?? {}) as Schema;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'type': {
      const types = ([] as string[]).concat(params.type ?? []);
      if (types.length === 2 && types.includes('boolean') && types.includes('null'))
        return 'must be true, false or null';
      return `must be ${types.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}`;
    }
    case 'enum':
      return `must be one of ${(params.allowedValues ?? []).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'minimum':
    case 'maximum':
      if (typeof parent.minimum === 'number' && typeof parent.maximum === 'number') {
        return `must be ${([] as unknown[]).concat(parent.type).includes('integer') ? 'an integer' : 'a number'} from ${parent.minimum} to ${parent.maximum}`;
      }
      return error.keyword === 'minimum' ? `must be at least ${params.limit}` : `must be at most ${params.limit}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${params.limit} characters`;
    case 'maxLength':
      return `must be at most ${params.limit} characters`;
    case 'minItems':
      return `needs at least ${params.limit} ${params.limit === 1 ? 'entry' : 'entries'}`;
    case 'maxItems':
      return `at most ${params.limit} entries`;
    case 'uniqueItems':
      return 'entries must differ';
    case 'format':
      return params.format === 'date-time'
        ? 'must be an ISO 8601 date-time with a zone'
        : `must be a valid ${params.format}`;
    case 'pattern':
      return parent.pattern === NAME_PATTERN ? NAME_PATTERN_MESSAGE : 'has an invalid format';
    case 'discriminator':
      return `must be one of ${tagValues(parent, resolve).join(', ')}`;
    case 'anyOf':
    case 'oneOf':
      return 'matches none of the forms the document allows';
    default:
      return error.message ?? 'is invalid';
  }
}

/** The values a discriminated `oneOf` accepts for its tag: each choice's const. */
function tagValues(parent: Schema, resolve: (s: Schema) => Schema): string[] {
  const tag = (parent.discriminator as { propertyName?: string } | undefined)?.propertyName ?? '';
  return ((parent.oneOf as Schema[] | undefined) ?? []).map((choice) =>
    String(((resolve(choice).properties as Record<string, Schema> | undefined)?.[tag] ?? {}).const ?? '?'),
  );
}

/** One message per field: the first is the most specific ajv found. */
function firstPerField(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(e.field) && seen.add(e.field));
}
