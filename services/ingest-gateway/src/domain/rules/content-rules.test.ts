import { checkContentRules, compileContentRules } from './content-rules';
import type { ContentRequest, ContentRules } from './content-rules';
import { RevisionCache } from './revision-cache';

const RULES: ContentRules = {
  required_headers: [{ name: 'X-Source', value: 'shop' }],
  body_filters: [{ kind: 'not_contains', value: 'sandbox' }],
  field_rules: [
    { path: 'order.id', required: true },
    { path: 'order.email', type: 'string', pattern: '^[^@\\s]+@[^@\\s]+$' },
  ],
};
const compiled = compileContentRules(RULES);

function req(over: Partial<ContentRequest>): ContentRequest {
  const data = { order: { id: 7, email: 'a@b.example' } };
  return {
    format: 'json',
    headers: { 'x-source': 'shop' },
    rawBody: Buffer.from(JSON.stringify(data)),
    rawQuery: '',
    data,
    ...over,
  };
}

describe('content rules in the spec order: required headers, body filters, field validation', () => {
  it('a request meeting every rule passes', () => {
    expect(checkContentRules(compiled, req({}))).toEqual({ ok: true });
  });

  it('a missing required header is reported first', () => {
    expect(checkContentRules(compiled, req({ headers: {}, rawBody: Buffer.from('sandbox'), data: {} }))).toMatchObject({
      code: 'REQUIRED_HEADER_MISSING',
    });
  });

  it('then body filters', () => {
    expect(checkContentRules(compiled, req({ rawBody: Buffer.from('sandbox'), data: {} }))).toMatchObject({
      code: 'REQUEST_BODY_FILTER_FAILED',
    });
  });

  it('field validation fails → 400 FIELD_VALIDATION_FAILED naming the field', () => {
    const result = checkContentRules(compiled, req({ data: { order: { id: null, email: 'nope' } } }));
    expect(result).toMatchObject({ ok: false, status: 400, code: 'FIELD_VALIDATION_FAILED' });
    expect(!result.ok && result.message).toBe(
      'Field validation failed: field order.id is required and must not be null; field order.email does not match its pattern.',
    );
  });

  it.each([
    ['None: field validation disabled', 'none', undefined, true],
    ['Query Parameters: field validation enabled', 'query', { order: 'x' }, false],
    ['Base64 JSON: field validation runs when the decoded root is an object', 'query_base64_json', { other: 1 }, false],
    ['Base64 JSON: field validation skipped when the decoded root is an array', 'query_base64_json', [1], true],
    ['Base64 JSON: field validation skipped for an empty payload', 'query_base64_json', undefined, true],
    ['plain text: field validation disabled', 'text', 'order', true],
  ] as const)('%s', (_row, format, data, passes) => {
    expect(checkContentRules(compiled, req({ format, data, rawBody: Buffer.alloc(0) })).ok).toBe(passes);
  });

  it('None: body filters do not run, required headers still do', () => {
    const sandboxBody = { format: 'none' as const, rawBody: Buffer.from('sandbox'), data: undefined };
    expect(checkContentRules(compiled, req(sandboxBody)).ok).toBe(true);
    expect(checkContentRules(compiled, req({ ...sandboxBody, headers: {} }))).toMatchObject({
      code: 'REQUIRED_HEADER_MISSING',
    });
  });

  it('query formats: body filters see the raw query string', () => {
    expect(
      checkContentRules(
        compiled,
        req({ format: 'query', rawQuery: 'env=sandbox', rawBody: Buffer.alloc(0), data: { order: { id: '1' } } }),
      ),
    ).toMatchObject({
      code: 'REQUEST_BODY_FILTER_FAILED',
    });
  });
});

describe('field validation on form and XML payloads', () => {
  it('XML paths start at the root element; attributes are @name; values are strings', () => {
    const xmlRules = compileContentRules({
      field_rules: [
        { path: 'order.@id', required: true, pattern: '^\\d+$' },
        { path: 'order.total', type: 'string' },
      ],
    });
    const ok = {
      format: 'xml' as const,
      headers: {},
      rawBody: Buffer.alloc(0),
      rawQuery: '',
      data: { order: { '@id': '7', total: '9.50' } },
    };
    expect(checkContentRules(xmlRules, ok).ok).toBe(true);
    expect(checkContentRules(xmlRules, { ...ok, data: { order: { total: '1' } } })).toMatchObject({
      code: 'FIELD_VALIDATION_FAILED',
      message: expect.stringContaining('order.@id'),
    });
  });

  it('form fields are strings, a repeated field an array', () => {
    const formRules = compileContentRules({ field_rules: [{ path: 'tag', type: 'array' }] });
    const req = { format: 'form' as const, headers: {}, rawBody: Buffer.alloc(0), rawQuery: '' };
    expect(checkContentRules(formRules, { ...req, data: { tag: ['a', 'b'] } }).ok).toBe(true);
    expect(checkContentRules(formRules, { ...req, data: { tag: 'a' } }).ok).toBe(false);
  });
});

describe('RevisionCache: compile once per endpoint revision', () => {
  it('reuses the compiled rules until the revision changes', () => {
    const cache = new RevisionCache<ReturnType<typeof compileContentRules>>();
    const build = jest.fn(() => compileContentRules(RULES));
    const first = cache.get('ep_1', 1, build);
    expect(cache.get('ep_1', 1, build)).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
    expect(cache.get('ep_1', 2, build)).not.toBe(first);
    expect(build).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(1);
  });

  it('drops the least recently used endpoint beyond its bound', () => {
    const cache = new RevisionCache<number>(2);
    cache.get('a', 1, () => 1);
    cache.get('b', 1, () => 2);
    cache.get('a', 1, () => -1);
    cache.get('c', 1, () => 3);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 1, () => -1)).toBe(1);
    expect(cache.get('b', 1, () => 22)).toBe(22);
  });

  it('stays within its bound with 100,000 distinct endpoints', () => {
    const cache = new RevisionCache<number>(1000);
    for (let i = 0; i < 100_000; i++) cache.get(`ep_${i}`, 1, () => i);
    expect(cache.size).toBe(1000);
  });
});
