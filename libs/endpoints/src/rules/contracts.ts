import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { compileOrderKey } from './order-key';
import type { OrderKeySource } from './order-key';
import { checkPattern, LazyPattern, lazyRegExpEngine } from './regex';
import { joinPath } from './validation';
import type { FieldError, Validation } from '@relay/contracts';

/*
 * Payload contracts (docs/contracts.md): a JSON Schema (2020-12) per event type, the event type
 * read like a target's ordering key (a payload field or a request header). The management API
 * checks them when saved; the gateway and `POST /v1/endpoints/{id}/validate` run them.
 */

export const CONTRACT_MODES = ['refuse', 'mark'] as const;
export type ContractMode = (typeof CONTRACT_MODES)[number];

/** The schema used for an event type no schema names, and for an event with no type. */
export const DEFAULT_CONTRACT = '*';

/** The stored setting. */
export interface PayloadContracts {
  /** where each event's type comes from */
  event_type: OrderKeySource;
  mode: ContractMode;
  /** one JSON Schema 2020-12 per event type value; `*` for any other */
  schemas: ContractSchema[];
}

/**
 * A schema is kept as the JSON text it was given: the store refuses field names a schema
 * uses (`$ref`, `$defs`), and the dashboard's editor shows the text as written.
 */
export interface ContractSchema {
  event_type: string;
  schema: string;
}

export const CONTRACT_LIMITS = {
  maxSchemas: 20,
  /** one schema, as JSON text */
  maxSchemaBytes: 32 * 1024,
  /** every schema of the endpoint together */
  maxTotalBytes: 128 * 1024,
  maxEventTypeLength: 200,
  /** errors reported for one payload */
  maxErrors: 10,
  /** characters of one error's message and of its path */
  maxMessageLength: 200,
} as const;

/** One failed check, as the sender and the API see it: where (a JSON Pointer) and what. */
export interface ContractError {
  path: string;
  message: string;
}

/** Which schema a payload was checked with, and what failed; `schema` null when none applies. */
export interface ContractResult {
  event_type: string | null;
  schema: string | null;
  errors: ContractError[];
  /** more errors than `errors` lists */
  truncated: boolean;
}

/**
 * A fresh ajv 2020-12 instance whose `pattern` and `patternProperties` run on RE2 (linear time),
 * never on the built-in RegExp. Unknown keywords and formats are ignored, as JSON Schema says of
 * annotations; `$ref` resolves only inside the schema (nothing is fetched).
 */
function contractAjv(patterns: Map<string, LazyPattern>): Ajv2020 {
  return new Ajv2020({
    allErrors: true,
    strict: false,
    validateFormats: false,
    logger: false,
    code: { regExp: lazyRegExpEngine(patterns) },
  });
}

/** Every `pattern` and `patternProperties` key of a schema (its keywords, not its `const` or `enum` values). */
function patternsOf(schema: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 64 || typeof schema !== 'object' || schema === null) return out;
  if (Array.isArray(schema)) {
    for (const item of schema) patternsOf(item, out, depth + 1);
    return out;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'const' || key === 'enum' || key === 'default' || key === 'examples') continue;
    if (key === 'pattern' && typeof value === 'string') out.push(value);
    if (key === 'patternProperties' && typeof value === 'object' && value !== null) out.push(...Object.keys(value));
    patternsOf(value, out, depth + 1);
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Save-time check of `schemas` and `mode` (the event-type selector is the target ordering key's
 * description, checked with it): sizes, JSON text, each pattern accepted by RE2, each schema
 * compiled, each event type once.
 */
export function validateContractSchemas(
  input: { mode?: unknown; schemas?: unknown },
  at = 'contracts',
): Validation<Pick<PayloadContracts, 'mode' | 'schemas'>> {
  const errors: FieldError[] = [];
  if (!(CONTRACT_MODES as readonly unknown[]).includes(input.mode))
    errors.push({ field: `${at}.mode`, message: `must be one of ${CONTRACT_MODES.join(', ')}` });
  const schemas = input.schemas;
  if (!Array.isArray(schemas) || schemas.length === 0 || schemas.length > CONTRACT_LIMITS.maxSchemas) {
    errors.push({
      field: `${at}.schemas`,
      message: `must be a list of 1 to ${CONTRACT_LIMITS.maxSchemas} {event_type, schema} entries`,
    });
    return { ok: false, errors };
  }
  const seen = new Set<string>();
  let total = 0;
  schemas.forEach((entry: unknown, i) => {
    const field = joinPath(`${at}.schemas`, i);
    const problem = entryProblem(entry, seen);
    if (problem !== null) {
      errors.push({ field: `${field}.${problem.at}`, message: problem.message });
      return;
    }
    total += Buffer.byteLength((entry as ContractSchema).schema);
  });
  if (total > CONTRACT_LIMITS.maxTotalBytes)
    errors.push({ field: `${at}.schemas`, message: `must be at most ${CONTRACT_LIMITS.maxTotalBytes} bytes together` });
  return errors.length > 0
    ? { ok: false, errors }
    : {
        ok: true,
        value: {
          mode: input.mode as ContractMode,
          schemas: (schemas as ContractSchema[]).map((e) => ({ event_type: e.event_type, schema: e.schema })),
        },
      };
}

function entryProblem(entry: unknown, seen: Set<string>): { at: string; message: string } | null {
  if (!isRecord(entry)) return { at: 'event_type', message: 'must be an object {event_type, schema}' };
  const type = entry.event_type;
  if (typeof type !== 'string' || type.length === 0 || type.length > CONTRACT_LIMITS.maxEventTypeLength)
    return { at: 'event_type', message: `must be 1 to ${CONTRACT_LIMITS.maxEventTypeLength} characters` };
  if (seen.has(type)) return { at: 'event_type', message: `"${type.slice(0, 40)}" has a schema already` };
  seen.add(type);
  const text = entry.schema;
  if (typeof text !== 'string') return { at: 'schema', message: 'must be the JSON text of a JSON Schema' };
  if (Buffer.byteLength(text) > CONTRACT_LIMITS.maxSchemaBytes)
    return { at: 'schema', message: `must be at most ${CONTRACT_LIMITS.maxSchemaBytes} bytes` };
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (err) {
    return { at: 'schema', message: `is not JSON: ${bounded(err instanceof Error ? err.message : '')}` };
  }
  if (typeof schema !== 'boolean' && !isRecord(schema))
    return { at: 'schema', message: 'must be a JSON Schema (an object or a boolean)' };
  const bad = patternsOf(schema)
    .map((p) => ({ p, problem: checkPattern(p) }))
    .find((x) => x.problem !== null);
  if (bad) return { at: 'schema', message: `pattern "${bad.p.slice(0, 40)}" ${bad.problem}` };
  try {
    contractAjv(new Map()).compile(schema as object);
  } catch (err) {
    return { at: 'schema', message: `is not a valid JSON Schema: ${bounded(err instanceof Error ? err.message : '')}` };
  }
  return null;
}

const bounded = (text: string): string =>
  text.length > CONTRACT_LIMITS.maxMessageLength ? `${text.slice(0, CONTRACT_LIMITS.maxMessageLength - 1)}…` : text;

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Checks one event: its type's schema (else `*`'s) on its parsed payload. `cost`: what the
 * schema's patterns may cost on it (docs/security.md "Rule cost"), found without running them.
 */
export type ContractCheck = ((headers: Headers, data: unknown) => ContractResult) & {
  cost: (headers: Headers, data: unknown) => number;
};

/** `$ref`s and dynamic refs: each may apply a pattern to the same text once more. */
function refsOf(schema: unknown, depth = 0): number {
  if (depth > 64 || typeof schema !== 'object' || schema === null) return 0;
  let n = 0;
  for (const [key, value] of Object.entries(schema)) {
    if ((key === '$ref' || key === '$dynamicRef') && typeof value === 'string') n += 1;
    n += refsOf(value, depth + 1);
  }
  return n;
}

/** The characters a pattern could test: every string and every object key of the payload. */
function textLength(data: unknown): number {
  let n = 0;
  const stack: unknown[] = [data];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') n += v.length;
    else if (Array.isArray(v)) stack.push(...v);
    else if (typeof v === 'object' && v !== null)
      for (const [k, item] of Object.entries(v)) {
        n += k.length;
        stack.push(item);
      }
  }
  return n;
}

/**
 * A stored schema that does not compile (saved before a check it now fails, or written by other
 * means); found when first used. The gateway answers 503 endpoint_unavailable, as for a stored
 * pattern RE2 cannot compile.
 */
export class UnusableContractError extends Error {}

/**
 * Compiles a saved setting; each schema is compiled by ajv when first used, once (the caller
 * keeps the result per endpoint revision). A stored schema that does not compile throws
 * UnusableContractError then, and again on every use.
 */
export function compileContracts(contracts: PayloadContracts): ContractCheck {
  const typeOf = compileOrderKey(contracts.event_type);
  const texts = new Map(contracts.schemas.map((e) => [e.event_type, e.schema]));
  const patterns = new Map<string, LazyPattern>();
  const ajv = contractAjv(patterns);
  const compiled = new Map<string, ValidateFunction | UnusableContractError>();
  const validatorOf = (name: string): ValidateFunction => {
    let validate = compiled.get(name);
    if (validate instanceof UnusableContractError) throw validate;
    if (validate === undefined) {
      try {
        const schema = JSON.parse(texts.get(name)!) as object;
        for (const p of patternsOf(schema)) if (!patterns.has(p)) patterns.set(p, new LazyPattern(p));
        validate = ajv.compile(schema);
      } catch (err) {
        const unusable = new UnusableContractError(
          `the contract schema for "${name.slice(0, 100)}" cannot be compiled (${bounded(err instanceof Error ? err.message : String(err))})`,
        );
        compiled.set(name, unusable);
        throw unusable;
      }
      compiled.set(name, validate);
    }
    return validate;
  };
  const has = (name: string) => texts.has(name);
  const schemaFor = (eventType: string | null): string | null =>
    eventType !== null && has(eventType) ? eventType : has(DEFAULT_CONTRACT) ? DEFAULT_CONTRACT : null;
  // per schema: its pattern keywords (each occurrence tests a text once), and how many times a
  // `$ref` may apply one again; read from the text without compiling
  const costs = new Map<string, { occurrences: LazyPattern[]; refs: number }>();
  const costOf = (name: string) => {
    let entry = costs.get(name);
    if (entry === undefined) {
      let schema: unknown;
      try {
        schema = JSON.parse(texts.get(name)!);
      } catch {
        schema = null; // reported when the schema is first used
      }
      const occurrences = patternsOf(schema).map((p) => {
        if (!patterns.has(p)) patterns.set(p, new LazyPattern(p));
        return patterns.get(p)!;
      });
      entry = { occurrences, refs: refsOf(schema) };
      costs.set(name, entry);
    }
    return entry;
  };
  const cost = (headers: Headers, data: unknown): number => {
    const schema = schemaFor(typeOf(headers, data));
    if (schema === null) return 0;
    const { occurrences, refs } = costOf(schema);
    if (occurrences.length === 0) return 0;
    const chars = textLength(data);
    return occurrences.reduce((sum, re) => sum + re.cost(chars), 0) * (1 + refs);
  };
  const check = (headers: Headers, data: unknown): ContractResult => {
    const eventType = typeOf(headers, data);
    const schema = schemaFor(eventType);
    if (schema === null) return { event_type: eventType, schema: null, errors: [], truncated: false };
    const validate = validatorOf(schema);
    if (validate(data)) return { event_type: eventType, schema, errors: [], truncated: false };
    const all = validate.errors ?? [];
    return {
      event_type: eventType,
      schema,
      errors: all.slice(0, CONTRACT_LIMITS.maxErrors).map(contractErrorOf),
      truncated: all.length > CONTRACT_LIMITS.maxErrors,
    };
  };
  return Object.assign(check, { cost });
}

/** ajv's message names the limit, never the value; `required` and `additionalProperties` name the field. */
function contractErrorOf(error: ErrorObject): ContractError {
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  let path = error.instancePath === '' ? '/' : error.instancePath;
  if (error.keyword === 'required' && params.missingProperty !== undefined)
    path = `${error.instancePath}/${escapePointer(params.missingProperty)}`;
  if (error.keyword === 'additionalProperties' && params.additionalProperty !== undefined)
    path = `${error.instancePath}/${escapePointer(params.additionalProperty)}`;
  const message =
    error.keyword === 'required'
      ? 'is required'
      : error.keyword === 'additionalProperties'
        ? 'is not allowed'
        : error.keyword === 'pattern'
          ? 'does not match its pattern'
          : (error.message ?? 'is invalid');
  return { path: bounded(path), message: bounded(message) };
}

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** `/a: must be string; /b: is required (and 3 more)`: the row's and the log's one-line summary. */
export function contractSummary(result: ContractResult, limit = 500): string {
  const text = `schema ${result.schema}: ${result.errors.map((e) => `${e.path} ${e.message}`).join('; ')}${result.truncated ? ' (more errors not listed)' : ''}`;
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}
