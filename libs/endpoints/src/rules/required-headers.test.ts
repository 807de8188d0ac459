import { MAX_REQUIRED_HEADERS, validateRequiredHeaders } from './required-headers';

describe('validateRequiredHeaders (save time)', () => {
  it('accepts names with and without expected values', () => {
    expect(validateRequiredHeaders([{ name: 'X-Source', value: 'shop 1' }, { name: 'x-tenant' }])).toEqual({
      ok: true,
      value: [{ name: 'X-Source', value: 'shop 1' }, { name: 'x-tenant' }],
    });
  });

  it.each([
    ['not a list', { name: 'x' }, 'required_headers', 'must be a list'],
    ['a name that is not an HTTP token', [{ name: 'X Source' }], 'required_headers[0].name', 'valid HTTP header name'],
    ['a missing name', [{ value: 'v' }], 'required_headers[0].name', 'is required'],
    ['an unknown field', [{ name: 'a', regex: 'x' }], 'required_headers[0].regex', 'is not a known field'],
    [
      'the same name twice, in another case',
      [{ name: 'X-A' }, { name: 'x-a' }],
      'required_headers[1].name',
      'listed twice',
    ],
    [
      'an empty value (omit it to require presence only)',
      [{ name: 'a', value: '' }],
      'required_headers[0].value',
      'must not be empty',
    ],
    ['a value with a line break', [{ name: 'a', value: 'x\r\ny' }], 'required_headers[0].value', 'printable ASCII'],
    [
      'a value HTTP would trim in transit',
      [{ name: 'a', value: 'x ' }],
      'required_headers[0].value',
      'start or end with a space',
    ],
    [
      'too many headers',
      Array.from({ length: MAX_REQUIRED_HEADERS + 1 }, (_, i) => ({ name: `h${i}` })),
      'required_headers',
      `at most ${MAX_REQUIRED_HEADERS}`,
    ],
  ])('rejects %s', (_case, input, field, message) => {
    const result = validateRequiredHeaders(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toEqual(
      expect.arrayContaining([{ field, message: expect.stringContaining(message) }]),
    );
  });

  it('messages never echo a configured value', () => {
    const result = validateRequiredHeaders([{ name: 'a', value: 'sec\u0001ret' }]);
    expect(JSON.stringify(result)).not.toContain('sec');
  });
});
