import { compileFieldRules, compileRouting, compileTextPredicate } from '@relay/endpoints';
import type {
  BodyFilter,
  FieldRule,
  FieldRuleValidator,
  RoutePredicate,
  Routing,
  TextPredicate,
} from '@relay/endpoints';
import { bodyFilterFailed } from './body-filters';
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

/**
 * A worker's copy of one rule set, each rule compiled when first needed: a compile happens inside
 * a job's deadline (a pattern of program size 10,000 takes tens of ms), and is named like the
 * rule's matching if the deadline stops it.
 */
export interface CompiledPooledRules {
  rules: PooledRules;
  bodyFilters: TextPredicate[];
  /** one validator per rule, so that a deadline can name the rule that was running */
  fieldRules: FieldRuleValidator[];
  routes: (RoutePredicate | null)[];
}

export function compilePooledRules(rules: PooledRules): CompiledPooledRules {
  return { rules, bodyFilters: [], fieldRules: [], routes: [] };
}

/** Evaluates one job; `at` is told each rule before it is compiled or run. The same answers as the inline path. */
export function evaluatePooled(
  compiled: CompiledPooledRules,
  job: PooledJob,
  at: (stage: RuleAt['stage'], index: number) => void,
): PooledVerdict {
  const { rules } = compiled;
  const { subject, data } = job;
  if (subject !== null) {
    for (const [i, filter] of rules.body_filters.entries()) {
      at('body_filter', i);
      const test = (compiled.bodyFilters[i] ??= compileTextPredicate(filter));
      if (!test(subject)) return { check: bodyFilterFailed(i, filter.kind), routes: [] };
    }
  }
  if (job.fieldValidation) {
    const fields = fieldsCheck(
      rules.field_rules.flatMap((rule, i) => {
        at('field_rule', i);
        return (compiled.fieldRules[i] ??= compileFieldRules([rule]))(data);
      }),
    );
    if (!fields.ok) return { check: fields, routes: [] };
  }
  const routes = rules.routing.map((routing, i) => {
    at('routing', i);
    const route = (compiled.routes[i] ??= compileRouting(routing));
    return route === null || route(data);
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
