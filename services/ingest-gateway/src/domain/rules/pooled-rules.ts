import { compileFieldRules, compileRouting, compileTextPredicate } from '@relay/endpoints';
import type {
  BodyFilter,
  FieldRule,
  FieldRuleValidator,
  RoutePredicate,
  Routing,
  RoutingRule,
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
/**
 * Which rule an evaluation is running: body filter `index`, field rule `index`, or routing rule
 * `rule` of target `index`.
 */
export interface RuleAt {
  stage: (typeof RULE_STAGES)[number];
  index: number;
  rule?: number;
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
  /** per target, each routing rule compiled alone, so that a deadline can name it */
  routes: RoutePredicate[][];
}

export function compilePooledRules(rules: PooledRules): CompiledPooledRules {
  return { rules, bodyFilters: [], fieldRules: [], routes: [] };
}

/** Evaluates one job; `at` is told each rule before it is compiled or run. The same answers as the inline path. */
export function evaluatePooled(
  compiled: CompiledPooledRules,
  job: PooledJob,
  at: (stage: RuleAt['stage'], index: number, rule?: number) => void,
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
    if (routing === null) return true;
    const compiledRules = (compiled.routes[i] ??= []);
    // as compileRouting combines them: `any` stops at the first rule met, `all` at the first not met
    const meets = (rule: RoutingRule, j: number) => {
      at('routing', i, j);
      return (compiledRules[j] ??= compileRouting({ match: 'all', rules: [rule] })!)(data);
    };
    return routing.match === 'any' ? routing.rules.some(meets) : routing.rules.every(meets);
  });
  return { check: PASS, routes };
}

/**
 * The rule a deadline stopped, as the sender is told (never its pattern): "body filter 2
 * (regex)", "the field rule on order.note", "routing rule 3 of target tg_…".
 */
export function describeRuleAt(rules: PooledRules, targetIds: readonly string[], at: RuleAt | null): string {
  if (at === null) return 'the rules';
  switch (at.stage) {
    case 'body_filter':
      return `body filter ${at.index + 1} (${rules.body_filters[at.index]?.kind ?? 'unknown'})`;
    case 'field_rule':
      return `the field rule on ${rules.field_rules[at.index]?.path ?? 'an unknown field'}`;
    case 'routing':
      return `routing rule ${(at.rule ?? 0) + 1} of target ${targetIds[at.index] ?? 'unknown'}`;
  }
}
