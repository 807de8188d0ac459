import { compileFieldRules, validateFieldRules } from './field-rules';
import { compileCostBound, compilePattern, programSizeBound } from './regex';
import type { FieldRule } from './field-rules';

describe('validateFieldRules (save time)', () => {
  it('accepts type tests, required fields and patterns', () => {
    const rules = [
      { path: 'order.id', required: true, type: 'integer' },
      { path: 'email', pattern: '^\\S+@\\S+$' },
    ];
    expect(validateFieldRules(rules)).toEqual({ ok: true, value: rules });
  });

  it.each([
    ['a lookahead pattern', [{ path: 'a', pattern: '^(?!x)' }], 'field_rules[0].pattern', 'not supported'],
    ['a backreference pattern', [{ path: 'a', pattern: '(.)\\1' }], 'field_rules[0].pattern', 'backreferences'],
    ['an empty path part', [{ path: 'a..b', required: true }], 'field_rules[0].path', 'without empty parts'],
    ['a __proto__ path part', [{ path: 'a.__proto__', required: true }], 'field_rules[0].path', '__proto__'],
    ['a rule that checks nothing', [{ path: 'a' }], 'field_rules[0]', 'at least one of'],
    ['an unknown type', [{ path: 'a', type: 'date' }], 'field_rules[0].type', 'must be one of'],
    ['a missing path', [{ type: 'string' }], 'field_rules[0].path', 'is required'],
  ])('rejects %s', (_case, input, field, message) => {
    const result = validateFieldRules(input);
    expect(!result.ok && result.errors).toEqual(
      expect.arrayContaining([{ field, message: expect.stringContaining(message) }]),
    );
  });
});

describe('field validation rules: type tests, required fields (a null value fails), regex patterns', () => {
  const check = (rules: FieldRule[], data: unknown) => compileFieldRules(rules)(data);

  it.each<[string, FieldRule, unknown, string | null]>([
    ['required: present', { path: 'a.b', required: true }, { a: { b: 0 } }, null],
    ['required: an empty string is present', { path: 'a', required: true }, { a: '' }, null],
    ['required: absent', { path: 'a.b', required: true }, { a: {} }, 'missing'],
    ['required: a null value fails', { path: 'a.b', required: true }, { a: { b: null } }, 'null'],
    ['required: a parent that is not an object', { path: 'a.b', required: true }, { a: 'x' }, 'missing'],
    ['required: a payload that is not an object', { path: 'a', required: true }, [1], 'missing'],
    ['not required: an absent field passes', { path: 'a.b', type: 'string' }, {}, null],
    ['not required: an absent parent passes', { path: 'a.b', type: 'string' }, { a: 5 }, null],
    ['type string', { path: 'a', type: 'string' }, { a: 'x' }, null],
    ['type string: a number fails', { path: 'a', type: 'string' }, { a: 1 }, 'type'],
    ['type number', { path: 'a', type: 'number' }, { a: 1.5 }, null],
    ['type integer: 1.5 fails', { path: 'a', type: 'integer' }, { a: 1.5 }, 'type'],
    ['type boolean: "true" fails', { path: 'a', type: 'boolean' }, { a: 'true' }, 'type'],
    ['type object', { path: 'a', type: 'object' }, { a: {} }, null],
    ['type array', { path: 'a', type: 'array' }, { a: [] }, null],
    ['type with a null value fails', { path: 'a', type: 'string' }, { a: null }, 'type'],
    ['pattern matches', { path: 'a', pattern: '^\\d{3}$' }, { a: '123' }, null],
    ['pattern mismatch', { path: 'a', pattern: '^\\d{3}$' }, { a: '12' }, 'pattern'],
    ['pattern is unanchored unless anchored', { path: 'a', pattern: 'b' }, { a: 'abc' }, null],
    ['pattern ignores non-strings (JSON Schema semantics)', { path: 'a', pattern: '^x$' }, { a: 5 }, null],
  ])('%s', (_row, rule, data, problem) => {
    const violations = check([rule], data);
    expect(violations.map((v) => v.problem)).toEqual(problem === null ? [] : [problem]);
  });

  it('messages name the field, never the pattern', () => {
    expect(check([{ path: 'user.zip', pattern: '^SECRET\\d+$' }], { user: { zip: 'x' } })).toEqual([
      { path: 'user.zip', problem: 'pattern', message: 'field user.zip does not match its pattern' },
    ]);
  });

  it('reports every violated rule, in rule order', () => {
    const rules: FieldRule[] = [
      { path: 'a', required: true },
      { path: 'b', type: 'integer' },
      { path: 'c', type: 'string' },
    ];
    expect(check(rules, { b: 'x', c: 'ok' }).map((v) => v.message)).toEqual([
      'field a is required',
      'field b must be an integer',
    ]);
  });

  it('regex patterns run in linear time: ^(a+)+$ against 30,000 a followed by ! completes', () => {
    const violations = check([{ path: 'v', pattern: '^(a+)+$' }], { v: `${'a'.repeat(30_000)}!` });
    expect(violations.map((v) => v.problem)).toEqual(['pattern']);
  });

  it('no rules: everything passes', () => {
    expect(compileFieldRules([])(null)).toEqual([]);
  });
});

describe('field rule cost (docs/security.md "Rule cost"): each pattern’s RE2 program size × the length of the string it would test', () => {
  it('counts patterns on string values only; type and required tests, non-strings and absent fields cost nothing', () => {
    const rules: FieldRule[] = [
      { path: 'email', pattern: '^\\S+@\\S+$' },
      { path: 'order.id', pattern: '[0-9]+' },
      { path: 'order.note', type: 'string', required: true },
      { path: 'absent', pattern: 'x' },
    ];
    // not compiled yet: the bound from the source, and the compile
    const cost = (p: string, length: number) => programSizeBound(p) * length + compileCostBound(p);
    const validate = compileFieldRules(rules);
    expect(validate.cost({ email: 'a@example.com', order: { id: 12, note: 'n' } })).toBe(cost('^\\S+@\\S+$', 13));
    expect(validate.cost({ email: 7, order: { id: '1234' } })).toBe(cost('[0-9]+', 4));
    // once a payload was checked, the compiled program's size × the text
    validate({ email: 'a@example.com', order: { id: '1', note: 'n' } });
    expect(validate.cost({ email: 'a@example.com' })).toBe(compilePattern('^\\S+@\\S+$').programSize() * 13);
    expect(compileFieldRules([]).cost({ email: 'x' })).toBe(0);
  });
});
