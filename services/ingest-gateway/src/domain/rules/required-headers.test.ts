import { checkRequiredHeaders } from './required-headers';

const SECRET = 'Tok3n-Value';

describe('Required headers (spec Authentication / Inbound rule 2)', () => {
  const required = [{ name: 'X-Relay-Source', value: SECRET }, { name: 'X-Tenant' }];

  it.each([
    ['header names match case-insensitively', { 'x-relay-source': SECRET, 'X-TENANT': 'acme' }, true],
    ['a header required without a value only has to be present', { 'x-relay-source': SECRET, 'x-tenant': '' }, true],
    ['values match case-sensitively', { 'x-relay-source': SECRET.toLowerCase(), 'x-tenant': 'a' }, false],
    [
      'incoming values are not whitespace-trimmed (leading space)',
      { 'x-relay-source': ` ${SECRET}`, 'x-tenant': 'a' },
      false,
    ],
    [
      'incoming values are not whitespace-trimmed (trailing space)',
      { 'x-relay-source': `${SECRET} `, 'x-tenant': 'a' },
      false,
    ],
    ['a missing header fails', { 'x-relay-source': SECRET }, false],
    ['a header with a wrong value fails', { 'x-relay-source': 'other', 'x-tenant': 'a' }, false],
    [
      'one of several values of a repeated header may match',
      { 'x-relay-source': ['other', SECRET], 'x-tenant': 'a' },
      true,
    ],
  ])('Required headers: %s', (_row, headers, passes) => {
    expect(checkRequiredHeaders(required, headers).ok).toBe(passes);
  });

  it('Required headers: a missing or wrong one gives 400 REQUIRED_HEADER_MISSING naming the header, never the expected value', () => {
    for (const headers of [{ 'x-tenant': 'a' }, { 'x-relay-source': 'nope', 'x-tenant': 'a' }]) {
      const result = checkRequiredHeaders(required, headers);
      expect(result).toMatchObject({ ok: false, status: 400, code: 'REQUIRED_HEADER_MISSING' });
      expect(!result.ok && result.message).toContain('X-Relay-Source');
      expect(!result.ok && result.message).not.toContain(SECRET);
    }
  });

  it('no required headers: every request passes', () => {
    expect(checkRequiredHeaders([], {}).ok).toBe(true);
  });
});
