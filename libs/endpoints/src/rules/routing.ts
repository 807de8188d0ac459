import { FORMAT_FEATURES } from '../payload/features';
import type { PayloadFormat } from '../payload/formats';
import type { PatternFilterKind, TextFilterKind } from './body-filters';
import { compileTextPredicate, isNegatedFilterKind } from './predicates';

/**
 * Routing rules of a target (docs/routing.md): a condition on the parsed
 * payload that decides whether the target gets an event. The rule model is the body filters'
 * (`contains`, `not_contains`, `equals`, `regex`, `not_regex`, `case_insensitive`, RE2 patterns)
 * applied to one field addressed by the field-validation dot path, plus `one_of`, `exists`,
 * `not_exists` and the numeric comparisons; `match` combines the rules (all / any).
 *
 * The shape is described once, as the target field `routing` (@relay/targets TARGET_FIELDS),
 * which validates it at save time; this file evaluates what that validation accepted.
 */
const ROUTING_MATCH = ['all', 'any'] as const;
const PRESENCE_ROUTE_KINDS = ['exists', 'not_exists'] as const;
const NUMERIC_ROUTE_KINDS = ['gt', 'gte', 'lt', 'lte'] as const;
type NumericRouteKind = (typeof NUMERIC_ROUTE_KINDS)[number];

export type RoutingRule =
  | { kind: TextFilterKind; path: string; value: string; case_insensitive?: boolean }
  | { kind: PatternFilterKind; path: string; pattern: string; case_insensitive?: boolean }
  | { kind: 'one_of'; path: string; values: string[] }
  | { kind: (typeof PRESENCE_ROUTE_KINDS)[number]; path: string }
  | { kind: NumericRouteKind; path: string; value: number };

export interface Routing {
  match: (typeof ROUTING_MATCH)[number];
  rules: RoutingRule[];
}

export const MAX_ROUTING_RULES = 20;
export const MAX_ROUTE_VALUES = 100;

/**
 * Why routing cannot apply to an endpoint of this payload format, or `null` when it can: rules
 * read fields of the parsed payload, which exist where field validation does (FORMAT_FEATURES);
 * a text payload is one string and None has no payload.
 */
export function routingFormatProblem(format: PayloadFormat): string | null {
  if (FORMAT_FEATURES[format].fieldValidation !== 'disabled') return null;
  return format === 'none'
    ? 'cannot apply: the endpoint’s payload format is none, so events have no payload to route on'
    : `cannot apply: the endpoint’s payload format is ${format}, whose payload is one string without fields (routing rules read fields by path)`;
}

/**
 * Decides whether one parsed payload goes to the target. `cost`: what its patterns may cost on
 * that payload (docs/security.md "Rule cost"), found without running them.
 */
export type RoutePredicate = ((data: unknown) => boolean) & { cost: (data: unknown) => number };

interface RuleTest {
  test: (data: unknown) => boolean;
  cost: (data: unknown) => number;
}

const FREE = (): number => 0;

const NUMBER_TEXT = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** The value at a dot path's segments, or undefined (arrays are not traversed). */
export function valueAt(data: unknown, segments: readonly string[]): unknown {
  let at = data;
  for (const s of segments) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.prototype.hasOwnProperty.call(at, s))
      return undefined;
    at = (at as Record<string, unknown>)[s];
  }
  return at;
}

/** A field's text: a string as it is, a number or boolean as JSON writes it; nothing else has one. */
function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

/** A field's number: a JSON number, or a string that is one (form, query and XML values are strings). */
function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && NUMBER_TEXT.test(value)) return Number(value);
  return null;
}

const COMPARE: Record<NumericRouteKind, (a: number, b: number) => boolean> = {
  gt: (a, b) => a > b,
  gte: (a, b) => a >= b,
  lt: (a, b) => a < b,
  lte: (a, b) => a <= b,
};

function compileRule(rule: RoutingRule): RuleTest {
  const segments = rule.path.split('.');
  switch (rule.kind) {
    case 'exists':
      return { test: (data) => valueAt(data, segments) != null, cost: FREE };
    case 'not_exists':
      return { test: (data) => valueAt(data, segments) == null, cost: FREE };
    case 'one_of': {
      const values = new Set(rule.values);
      const test = (data: unknown) => {
        const text = textOf(valueAt(data, segments));
        return text !== null && values.has(text);
      };
      return { test, cost: FREE };
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const compare = COMPARE[rule.kind];
      const bound = rule.value;
      const test = (data: unknown) => {
        const n = numberOf(valueAt(data, segments));
        return n !== null && compare(n, bound);
      };
      return { test, cost: FREE };
    }
    default: {
      const predicate = compileTextPredicate(rule);
      // a field without text does not contain or match anything: the negated kinds pass there
      const missing = isNegatedFilterKind(rule.kind);
      const test = (data: unknown) => {
        const text = textOf(valueAt(data, segments));
        return text === null ? missing : predicate(text);
      };
      // a field without text runs no test, so compiles nothing
      const cost = (data: unknown) => {
        const text = textOf(valueAt(data, segments));
        return text === null ? 0 : predicate.cost(text.length);
      };
      return { test, cost };
    }
  }
}

/**
 * Compiles validated routing once (the gateway keeps the result with the endpoint in its
 * cache). `null` routing sends every event. Cost per event: one walk of at most
 * MAX_PATH_SEGMENTS keys and one test per rule, patterns in linear time (RE2).
 */
export function compileRouting(routing: Routing | null | undefined): RoutePredicate | null {
  if (!routing) return null;
  const rules = routing.rules.map(compileRule);
  const test =
    routing.match === 'any'
      ? (data: unknown) => rules.some((r) => r.test(data))
      : (data: unknown) => rules.every((r) => r.test(data));
  return Object.assign(test, { cost: (data: unknown) => rules.reduce((sum, r) => sum + r.cost(data), 0) });
}
