import { compileFieldRules, compileRouting } from '@relay/endpoints';
import type { BodyFilter, FieldRule, RoutePredicate, Routing } from '@relay/endpoints';
import { compileBodyFilters } from './body-filters';
import type { CompiledBodyFilters } from './body-filters';
import { fieldsCheck } from './content-rules';
import { PASS } from './rejection';
import type { Check } from './rejection';

/**
 * A request whose pattern rules may cost more than the event loop can spare runs them in the rule
 * pool, a worker thread with a deadline (docs/security.md "Rule cost"). These are the rules as
 * stored, which a worker compiles once per `key`.
 */
export interface PooledRules {
  /** changes whenever the endpoint or one of its targets changes */
  key: string;
  body_filters: readonly BodyFilter[];
  field_rules: readonly FieldRule[];
  /** each enabled target's routing, in the view's target order (null: every event) */
  routing: readonly (Routing | null)[];
}

/** One request's rules to evaluate in the pool, with the texts and payload they read. */
export interface PooledJob {
  rules: PooledRules;
  /** the body filters' subject; null where the format runs none */
  subject: string | null;
  data: unknown;
  fieldValidation: boolean;
}

export const RULE_STAGES = ['body_filter', 'field_rule', 'routing'] as const;
/** Which rule an evaluation is running: a body filter, a field rule, or a target's routing rules. */
export interface RuleAt {
  stage: (typeof RULE_STAGES)[number];
  index: number;
}

/**
 * Body filters, then field rules, as step 5 runs them inline; when they pass, whether each target
 * gets the event (docs/routing.md), decided here as it would be at accept.
 */
export interface PooledVerdict {
  check: Check;
  routes: boolean[];
}

export interface CompiledPooledRules {
  bodyFilters: CompiledBodyFilters;
  /** one validator per rule, so that a deadline can name the rule that was running */
  fieldRules: ReturnType<typeof compileFieldRules>[];
  routes: (RoutePredicate | null)[];
}

export function compilePooledRules(rules: PooledRules): CompiledPooledRules {
  return {
    bodyFilters: compileBodyFilters(rules.body_filters),
    fieldRules: rules.field_rules.map((rule) => compileFieldRules([rule])),
    routes: rules.routing.map((routing) => compileRouting(routing)),
  };
}

/** Evaluates one job; `at` is told each rule before it runs. The same answers as the inline path. */
export function evaluatePooled(
  compiled: CompiledPooledRules,
  job: PooledJob,
  at: (stage: RuleAt['stage'], index: number) => void,
): PooledVerdict {
  if (job.subject !== null) {
    const filtered = compiled.bodyFilters(job.subject, (i) => at('body_filter', i));
    if (!filtered.ok) return { check: filtered, routes: [] };
  }
  if (job.fieldValidation) {
    const fields = fieldsCheck(
      compiled.fieldRules.flatMap((validate, i) => {
        at('field_rule', i);
        return validate(job.data);
      }),
    );
    if (!fields.ok) return { check: fields, routes: [] };
  }
  const routes = compiled.routes.map((route, i) => {
    at('routing', i);
    return route === null || route(job.data);
  });
  return { check: PASS, routes };
}

/**
 * The rule a deadline stopped, as the sender is told (never its pattern): "body filter 2
 * (regex)", "the field rule on order.note", "the routing rules of target tg_…".
 */
export function describeRuleAt(rules: PooledRules, targetIds: readonly string[], at: RuleAt | null): string {
  if (at === null) return 'the rules';
  switch (at.stage) {
    case 'body_filter':
      return `body filter ${at.index + 1} (${rules.body_filters[at.index]?.kind ?? 'unknown'})`;
    case 'field_rule':
      return `the field rule on ${rules.field_rules[at.index]?.path ?? 'an unknown field'}`;
    case 'routing':
      return `the routing rules of target ${targetIds[at.index] ?? 'unknown'}`;
  }
}
