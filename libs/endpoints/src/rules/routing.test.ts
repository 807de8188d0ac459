import { compileRouting, routingFormatProblem } from './routing';
import { RE2JS } from 're2js';
import { compileCostBound, compilePattern, programSizeBound } from './regex';
import type { Routing, RoutingRule } from './routing';

const routes = (rule: RoutingRule, data: unknown): boolean => compileRouting({ match: 'all', rules: [rule] })!(data);

describe('routing rules per target: the body-filter kinds on one payload field, and one_of, exists, numeric comparisons', () => {
  const order = {
    type: 'order.paid',
    amount: 120.5,
    count: '7',
    live: true,
    customer: { tier: 'Gold', tags: ['a'] },
    note: null,
  };
  it.each<[string, RoutingRule, boolean]>([
    ['equals: the field’s text', { kind: 'equals', path: 'type', value: 'order.paid' }, true],
    ['equals: another text', { kind: 'equals', path: 'type', value: 'order.refunded' }, false],
    ['equals: a number as JSON writes it', { kind: 'equals', path: 'amount', value: '120.5' }, true],
    ['equals: a boolean as JSON writes it', { kind: 'equals', path: 'live', value: 'true' }, true],
    [
      'equals: case_insensitive',
      { kind: 'equals', path: 'customer.tier', value: 'GOLD', case_insensitive: true },
      true,
    ],
    ['equals: an object has no text', { kind: 'equals', path: 'customer', value: '[object Object]' }, false],
    ['equals: an absent field', { kind: 'equals', path: 'missing', value: 'x' }, false],
    ['contains', { kind: 'contains', path: 'type', value: 'paid' }, true],
    ['not_contains: present', { kind: 'not_contains', path: 'type', value: 'paid' }, false],
    ['not_contains: an absent field contains nothing', { kind: 'not_contains', path: 'missing', value: 'paid' }, true],
    ['regex: anywhere in the text', { kind: 'regex', path: 'type', pattern: '^order\\.' }, true],
    ['regex: no match', { kind: 'regex', path: 'type', pattern: '^refund' }, false],
    ['not_regex: no match passes', { kind: 'not_regex', path: 'type', pattern: '^refund' }, true],
    ['one_of: listed', { kind: 'one_of', path: 'type', values: ['order.created', 'order.paid'] }, true],
    ['one_of: not listed', { kind: 'one_of', path: 'type', values: ['order.created'] }, false],
    ['one_of: a number’s text', { kind: 'one_of', path: 'count', values: ['7', '8'] }, true],
    ['exists: nested', { kind: 'exists', path: 'customer.tier' }, true],
    ['exists: an array is a value', { kind: 'exists', path: 'customer.tags' }, true],
    ['exists: null is not', { kind: 'exists', path: 'note' }, false],
    ['exists: arrays are not traversed', { kind: 'exists', path: 'customer.tags.0' }, false],
    ['exists: an inherited name is not a field', { kind: 'exists', path: 'type.length' }, false],
    ['not_exists: absent', { kind: 'not_exists', path: 'customer.vip' }, true],
    ['not_exists: present', { kind: 'not_exists', path: 'type' }, false],
    ['gt: a JSON number', { kind: 'gt', path: 'amount', value: 100 }, true],
    ['gt: equal is not greater', { kind: 'gt', path: 'amount', value: 120.5 }, false],
    ['gte: equal', { kind: 'gte', path: 'amount', value: 120.5 }, true],
    ['lt: a numeric string (form, query and XML values are strings)', { kind: 'lt', path: 'count', value: 10 }, true],
    ['lte: below', { kind: 'lte', path: 'count', value: 6 }, false],
    ['gt: text that is not a number', { kind: 'gt', path: 'type', value: 0 }, false],
    ['gt: an absent field', { kind: 'gt', path: 'missing', value: 0 }, false],
  ])('%s', (_row, rule, expected) => {
    expect(routes(rule, order)).toBe(expected);
  });

  it('all: every rule must match; any: one is enough', () => {
    const rules: RoutingRule[] = [
      { kind: 'equals', path: 'type', value: 'order.paid' },
      { kind: 'gt', path: 'amount', value: 1000 },
    ];
    const all: Routing = { match: 'all', rules };
    expect(compileRouting(all)!(order)).toBe(false);
    expect(compileRouting({ ...all, match: 'any' })!(order)).toBe(true);
    expect(compileRouting({ ...all, match: 'any' })!({ type: 'x', amount: 5 })).toBe(false);
  });

  it('no routing: every event goes to the target (no predicate at all)', () => {
    expect(compileRouting(null)).toBeNull();
    expect(compileRouting(undefined)).toBeNull();
  });

  it('a payload that is not an object routes like one without the field', () => {
    expect(routes({ kind: 'exists', path: 'type' }, 'type')).toBe(false);
    expect(routes({ kind: 'exists', path: 'type' }, [{ type: 1 }])).toBe(false);
    expect(routes({ kind: 'not_exists', path: 'type' }, undefined)).toBe(true);
  });

  it('patterns run in linear time: ^(a+)+$ against 30,000 a followed by ! completes', () => {
    expect(routes({ kind: 'regex', path: 'v', pattern: '^(a+)+$' }, { v: `${'a'.repeat(30_000)}!` })).toBe(false);
  });
});

describe('routing applies where the payload format has fields (the field-validation row of FORMAT_FEATURES)', () => {
  it.each([
    ['json', null],
    ['form', null],
    ['xml', null],
    ['query', null],
    ['query_base64_json', null],
    ['text', 'one string without fields'],
    ['none', 'no payload'],
  ] as const)('%s', (format, problem) => {
    const found = routingFormatProblem(format);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});

describe('routing cost (docs/security.md "Rule cost"): RE2 program size × the length of the field text each pattern would test', () => {
  const size = (pattern: string, ci = false) => compilePattern(pattern, ci).programSize();

  it('counts regex, not_regex and case-insensitive literals on their own fields; other kinds and absent fields cost nothing', () => {
    const route = compileRouting({
      match: 'any',
      rules: [
        { kind: 'regex', path: 'type', pattern: '^order\\.' },
        { kind: 'not_regex', path: 'note', pattern: 'x+y', case_insensitive: true },
        { kind: 'contains', path: 'type', value: 'Paid', case_insensitive: true },
        { kind: 'contains', path: 'type', value: 'paid' },
        { kind: 'one_of', path: 'type', values: ['a'] },
        { kind: 'gt', path: 'amount', value: 1 },
        { kind: 'regex', path: 'absent', pattern: 'z' },
      ],
    })!;
    const data = { type: 'order.paid', note: 'hello', amount: 12345 };
    // not compiled yet: the bound from the source, and the compile
    const cost = (pattern: string, length: number, folded = false) =>
      programSizeBound(pattern) * length + compileCostBound(pattern, folded);
    expect(route.cost(data)).toBe(cost('^order\\.', 10) + cost('x+y', 5, true) + cost(RE2JS.quote('Paid'), 10, true));
    // a number's text is what the rule tests: JSON's spelling of it
    expect(
      compileRouting({ match: 'all', rules: [{ kind: 'regex', path: 'n', pattern: '1' }] })!.cost({ n: 12345 }),
    ).toBe(cost('1', 5));
    // once tested, the compiled program's size × the text; `any` stopped at the first rule, so the
    // case-insensitive literal on the same field is still not compiled
    expect(route(data)).toBe(true);
    expect(route.cost({ type: 'order.paid' })).toBe(size('^order\\.') * 10 + cost(RE2JS.quote('Paid'), 10, true));
  });

  it('only plain literals, presence and comparisons: nothing', () => {
    const route = compileRouting({
      match: 'all',
      rules: [
        { kind: 'equals', path: 'type', value: 'x' },
        { kind: 'exists', path: 'type' },
      ],
    })!;
    expect(route.cost({ type: 'x'.repeat(10_000) })).toBe(0);
  });
});
