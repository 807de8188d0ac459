import type { BodyFilter } from '@relay/endpoints';
import { bodyFilterSubject, compileBodyFilters } from './body-filters';

const passes = (filters: BodyFilter[], subject: string) => compileBodyFilters(filters)(subject).ok;

describe('Body filters: rules on the raw body; all rules must pass', () => {
  it.each<[string, BodyFilter, string, boolean]>([
    ['contains: present', { kind: 'contains', value: '"type":"order"' }, '{"type":"order"}', true],
    ['contains: absent', { kind: 'contains', value: '"type":"order"' }, '{"type":"refund"}', false],
    ['contains: case-sensitive by default', { kind: 'contains', value: 'ORDER' }, 'order', false],
    ['contains: case_insensitive', { kind: 'contains', value: 'ORDER', case_insensitive: true }, 'an order', true],
    [
      'contains: case_insensitive folds Unicode',
      { kind: 'contains', value: 'ÉTÉ', case_insensitive: true },
      'été',
      true,
    ],
    ['contains: the value is literal, not a pattern', { kind: 'contains', value: 'a.b' }, 'axb', false],
    ['not_contains: absent', { kind: 'not_contains', value: 'test' }, 'live event', true],
    ['not_contains: present', { kind: 'not_contains', value: 'test' }, 'a test event', false],
    [
      'not_contains: case_insensitive',
      { kind: 'not_contains', value: 'TEST', case_insensitive: true },
      'a test',
      false,
    ],
    ['equals: the whole text', { kind: 'equals', value: 'ping' }, 'ping', true],
    ['equals: a substring is not equal', { kind: 'equals', value: 'ping' }, 'ping!', false],
    ['equals: case_insensitive', { kind: 'equals', value: 'PING', case_insensitive: true }, 'ping', true],
    [
      'equals: case_insensitive is still the whole text',
      { kind: 'equals', value: 'PING', case_insensitive: true },
      'pinging',
      false,
    ],
    ['regex: matches anywhere', { kind: 'regex', pattern: '"amount":\\s*\\d+' }, '{"id":1,"amount": 30}', true],
    ['regex: no match', { kind: 'regex', pattern: '^\\{"ok"' }, '{"id":1}', false],
    ['regex: case_insensitive', { kind: 'regex', pattern: 'paid$', case_insensitive: true }, 'status=PAID', true],
    ['not_regex: no match passes', { kind: 'not_regex', pattern: 'sandbox|staging' }, 'env=prod', true],
    ['not_regex: a match fails', { kind: 'not_regex', pattern: 'sandbox|staging' }, 'env=staging', false],
  ])('%s', (_row, filter, subject, expected) => {
    expect(passes([filter], subject)).toBe(expected);
  });

  it('all rules must pass: the first failing one gives 400 REQUEST_BODY_FILTER_FAILED, numbered, without its value', () => {
    const filters: BodyFilter[] = [
      { kind: 'contains', value: 'order' },
      { kind: 'not_contains', value: 'secret-marker' },
      { kind: 'regex', pattern: 'never' },
    ];
    expect(compileBodyFilters(filters)('order secret-marker')).toEqual({
      ok: false,
      status: 400,
      code: 'REQUEST_BODY_FILTER_FAILED',
      message: 'The request did not pass body filter 2 (not_contains).',
    });
    expect(passes(filters, 'order never')).toBe(true);
  });

  it('no filters: everything passes', () => {
    expect(passes([], '')).toBe(true);
  });

  it('regexes run in linear time: ^(a+)+$ against 30,000 a followed by ! completes', () => {
    expect(passes([{ kind: 'regex', pattern: '^(a+)+$' }], `${'a'.repeat(30_000)}!`)).toBe(false);
  });
});

describe('Body filters apply to the raw decoded body for JSON, XML and text; the raw form body for form; the raw query string for query formats', () => {
  const rawBody = Buffer.from('name=caf%C3%A9&x=1');
  const rawQuery = 'q=a+b&data=eyJ9';

  it.each([
    ['json', Buffer.from('{"name":"café"}'), '{"name":"café"}'],
    ['xml', Buffer.from('<a>café</a>'), '<a>café</a>'],
    ['text', Buffer.from('café'), 'café'],
    ['form', rawBody, 'name=caf%C3%A9&x=1'],
    ['query', rawBody, rawQuery],
    ['query_base64_json', rawBody, rawQuery],
  ] as const)('%s', (format, body, expected) => {
    expect(bodyFilterSubject(format, { rawBody: body, rawQuery })).toBe(expected);
  });

  it('None: filters do not run (the body is ignored and the payload is empty)', () => {
    expect(bodyFilterSubject('none', { rawBody, rawQuery })).toBeNull();
  });
});
