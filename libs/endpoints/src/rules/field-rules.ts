import Ajv from 'ajv';
import type { ErrorObject } from 'ajv';
import { checkPattern, LazyPattern, lazyRegExpEngine } from './regex';
import { valueAt } from './routing';
import { joinPath, schemaCheck } from './validation';
import { resultOf } from '@relay/contracts';
import type { FieldError, Validation } from '@relay/contracts';

/**
 * Spec "Endpoint / field validation rules": type tests, required fields (a null value fails)
 * and regex patterns, on fields of the parsed payload addressed by a dot path (`order.customer.email`).
 * Path segments are object keys; arrays are not traversed. `pattern` tests string values only
 * (JSON Schema semantics) and runs on RE2; combine it with `type: 'string'` to also refuse
 * non-strings. Without `required`, a field that is absent (or under a non-object) passes.
 */
export const FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array'] as const;
type FieldType = (typeof FIELD_TYPES)[number];

export interface FieldRule {
  path: string;
  type?: FieldType;
  required?: boolean;
  pattern?: string;
}

export const MAX_FIELD_RULES = 50;
export const MAX_PATH_SEGMENTS = 16;

const check = schemaCheck({
  type: 'array',
  maxItems: MAX_FIELD_RULES,
  items: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, maxLength: 512 },
      type: { enum: [...FIELD_TYPES] },
      required: { type: 'boolean' },
      pattern: { type: 'string' },
    },
    required: ['path'],
    additionalProperties: false,
  },
});

export function validateFieldRules(input: unknown, at = 'field_rules'): Validation<FieldRule[]> {
  const errors = check(input, at);
  if (errors.length > 0) return { ok: false, errors };
  const rules = input as FieldRule[];
  rules.forEach((rule, i) => errors.push(...ruleErrors(rule, joinPath(at, i))));
  return resultOf(errors, () => rules.map((r) => ({ ...r })));
}

/**
 * The dot-path syntax every rule on a payload field uses (field validation, target routing):
 * object keys separated by dots, at most MAX_PATH_SEGMENTS of them. `null` when the path is valid.
 */
export function fieldPathProblem(path: string): string | null {
  const segments = path.split('.');
  if (segments.some((s) => s === ''))
    return 'must be dot-separated field names without empty parts (e.g. order.customer.email)';
  if (segments.length > MAX_PATH_SEGMENTS) return `must have at most ${MAX_PATH_SEGMENTS} parts`;
  if (segments.includes('__proto__')) return 'must not use the name __proto__';
  return null;
}

function ruleErrors(rule: FieldRule, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const pathProblem = fieldPathProblem(rule.path);
  if (pathProblem !== null) errors.push({ field: `${field}.path`, message: pathProblem });
  if (rule.type === undefined && rule.required !== true && rule.pattern === undefined) {
    errors.push({ field, message: 'must set at least one of type, required or pattern' });
  }
  if (rule.pattern !== undefined) {
    const problem = checkPattern(rule.pattern);
    if (problem !== null) errors.push({ field: `${field}.pattern`, message: problem });
  }
  return errors;
}

interface FieldViolation {
  /** the rule's dot path */
  path: string;
  problem: 'missing' | 'null' | 'type' | 'pattern';
  /** names the field, never echoes the pattern or the value */
  message: string;
}

/**
 * Returns every violated rule, in rule order; an empty list means the payload passes. `cost`:
 * what its patterns may cost on that payload (docs/security.md "Rule cost"), found without
 * running them: each pattern's RE2 program size × the length of the string it would test.
 */
export type FieldRuleValidator = ((data: unknown) => FieldViolation[]) & { cost: (data: unknown) => number };

/**
 * Compiles validated rules into one ajv validator (compile once per endpoint revision; the
 * gateway caches the result). Each rule becomes one `allOf` branch, so an error's schema path
 * names the rule. Patterns run on RE2 through ajv's `code.regExp` hook.
 */
export function compileFieldRules(rules: readonly FieldRule[]): FieldRuleValidator {
  if (rules.length === 0) return Object.assign(() => [], { cost: () => 0 });
  // a pattern tests string values only (JSON Schema), so only a string at its path costs
  const patterns = new Map(
    rules.flatMap((r) => (r.pattern === undefined ? [] : [[r.pattern, new LazyPattern(r.pattern)]])),
  );
  const tested = rules.flatMap((r) =>
    r.pattern === undefined ? [] : [{ segments: r.path.split('.'), re: patterns.get(r.pattern)! }],
  );
  const cost = (data: unknown): number =>
    tested.reduce((sum, p) => {
      const value = valueAt(data, p.segments);
      return sum + (typeof value === 'string' ? p.re.cost(value.length) : 0);
    }, 0);
  // One instance per compiled rule set, so a replaced revision is garbage-collected with it.
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictTypes: false,
    logger: false,
    code: { regExp: lazyRegExpEngine(patterns) },
  });
  const validate = ajv.compile({ allOf: rules.map(ruleSchema) });
  const check = (data: unknown): FieldViolation[] => {
    if (validate(data)) return [];
    const byRule = new Map<number, ErrorObject[]>();
    for (const error of validate.errors ?? []) {
      const index = Number(/^#\/allOf\/(\d+)\//.exec(error.schemaPath)?.[1]);
      byRule.set(index, [...(byRule.get(index) ?? []), error]);
    }
    return [...byRule.entries()].sort(([a], [b]) => a - b).map(([i, errors]) => violationOf(rules[i]!, errors));
  };
  return Object.assign(check, { cost });
}

/** `a.b.c` → `{properties: {a: {properties: {b: {properties: {c: leaf}}}}}}`, plus `required` at each level. */
function ruleSchema(rule: FieldRule): object {
  const leaf: Record<string, unknown> = {};
  if (rule.type !== undefined) leaf.type = rule.type;
  if (rule.pattern !== undefined) leaf.pattern = rule.pattern;
  if (rule.required === true) leaf.not = { type: 'null' };
  return rule.path
    .split('.')
    .reduceRight<object>(
      (child, key) =>
        rule.required === true
          ? { type: 'object', required: [key], properties: { [key]: child } }
          : { properties: { [key]: child } },
      leaf,
    );
}

const TYPE_NAMES: Record<FieldType, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
};

function violationOf(rule: FieldRule, errors: ErrorObject[]): FieldViolation {
  const depth = rule.path.split('.').length;
  const atLeaf = (e: ErrorObject) => e.instancePath.split('/').length - 1 === depth;
  const path = rule.path;
  if (errors.some((e) => e.keyword === 'required' || (e.keyword === 'type' && !atLeaf(e))))
    return { path, problem: 'missing', message: `field ${path} is required` };
  if (errors.some((e) => e.keyword === 'not'))
    return { path, problem: 'null', message: `field ${path} is required and must not be null` };
  if (errors.some((e) => e.keyword === 'type'))
    return { path, problem: 'type', message: `field ${path} must be ${TYPE_NAMES[rule.type ?? 'string']}` };
  return { path, problem: 'pattern', message: `field ${path} does not match its pattern` };
}
