import { validateBodyFilters } from './body-filters';

describe('validateBodyFilters (save time)', () => {
  it('accepts each kind', () => {
    const filters = [
      { kind: 'contains', value: 'order' },
      { kind: 'not_contains', value: 'test', case_insensitive: true },
      { kind: 'equals', value: 'ping' },
      { kind: 'regex', pattern: '"amount":\\s*\\d+' },
      { kind: 'not_regex', pattern: '(?i)sandbox' },
    ];
    expect(validateBodyFilters(filters)).toEqual({ ok: true, value: filters });
  });

  it.each([
    ['lookahead', '^(?=.*order).*$', 'lookahead and lookbehind are not supported'],
    ['negative lookahead', 'foo(?!bar)', 'lookahead and lookbehind are not supported'],
    ['lookbehind', '(?<=a)b', 'lookahead and lookbehind are not supported'],
    ['a backreference', '(a)\\1', 'backreferences are not supported'],
    ['a named backreference', '(?<x>a)\\k<x>', 'backreferences are not supported'],
    ['a syntax error', '[a-', 'is not a valid RE2 pattern'],
    ['an empty pattern', '', 'must not be empty'],
    ['a pattern too long', 'a'.repeat(1025), 'at most 1024 characters'],
    ['a pattern too costly', '.{1000}'.repeat(11), 'too complex'],
  ])('a pattern re2 cannot compile is rejected at save time: %s', (_case, pattern, message) => {
    const result = validateBodyFilters([
      { kind: 'contains', value: 'ok' },
      { kind: 'regex', pattern },
    ]);
    expect(result).toEqual({
      ok: false,
      errors: [{ field: 'body_filters[1].pattern', message: expect.stringContaining(message) }],
    });
  });

  it.each([
    ['an unknown kind', [{ kind: 'startswith', value: 'a' }], 'body_filters[0].kind', 'must be one of'],
    ['a text kind without value', [{ kind: 'contains' }], 'body_filters[0].value', 'is required for a contains filter'],
    [
      'a text kind given a pattern',
      [{ kind: 'equals', value: 'a', pattern: 'a' }],
      'body_filters[0].pattern',
      'is not used by a equals filter',
    ],
    [
      'a pattern kind without pattern',
      [{ kind: 'not_regex', value: 'a' }],
      'body_filters[0].pattern',
      'is required for a not_regex filter',
    ],
    [
      'a non-boolean case_insensitive',
      [{ kind: 'contains', value: 'a', case_insensitive: 'yes' }],
      'body_filters[0].case_insensitive',
      'must be true or false',
    ],
    ['an empty value', [{ kind: 'contains', value: '' }], 'body_filters[0].value', 'must not be empty'],
  ])('rejects %s', (_case, input, field, message) => {
    const result = validateBodyFilters(input);
    expect(!result.ok && result.errors).toEqual(
      expect.arrayContaining([{ field, message: expect.stringContaining(message) }]),
    );
  });

  it('reports every problem at once', () => {
    const result = validateBodyFilters([{ kind: 'regex', pattern: '(?=x)' }, { kind: 'contains' }]);
    expect(!result.ok && result.errors.map((e) => e.field)).toEqual([
      'body_filters[0].pattern',
      'body_filters[1].value',
    ]);
  });
});
