import { readPayload } from './read-payload';
import { accepted, request, settings } from './test-helpers';

const query = (rawQuery: string) => readPayload('query', request({ method: 'GET', rawQuery }), settings());

describe('Query Parameters: all query parameters become a flat JSON object', () => {
  it.each([
    [
      'single value (text, number, boolean) → string',
      'name=Ada&age=36&active=true',
      { name: 'Ada', age: '36', active: 'true' },
    ],
    ['repeated name → array of strings in order', 'tag=b&tag=a&x=1&tag=c', { tag: ['b', 'a', 'c'], x: '1' }],
    ['empty value or name without `=` → empty string', 'empty=&bare&after=1', { empty: '', bare: '', after: '1' }],
    [
      'percent-encoded → decoded string',
      'q=caf%C3%A9%20au%20lait&sym=%2B%26%3D%23&n%61me=v',
      { q: 'café au lait', sym: '+&=#', name: 'v' },
    ],
    ['no parameters → {}', '', {}],
    ['+ decodes as a space (WHATWG form decoding)', 'q=a+b', { q: 'a b' }],
    ['bracket and dot names stay flat keys', 'a[b]=1&a.c=2', { 'a[b]': '1', 'a.c': '2' }],
    ['an invalid percent escape stays as written', 'q=100%&r=%zz', { q: '100%', r: '%zz' }],
    ['empty pairs are skipped', 'a=1&&b=2&', { a: '1', b: '2' }],
  ])('Query Parameters: %s', (_row, rawQuery, expected) => {
    expect(accepted(query(rawQuery)).data).toEqual(expected);
  });

  it('a parameter named __proto__ is an ordinary key, not the prototype', () => {
    const data = accepted(query('__proto__=x&a=1')).data as Record<string, unknown>;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(['__proto__', 'a']);
  });

  it('Webhook forwarding: JSON body (application/json) of the object', () => {
    const { forward } = accepted(query('tag=a&tag=b&q=x'));
    expect(forward.content_type).toBe('application/json');
    expect(JSON.parse(forward.body.toString())).toEqual({ tag: ['a', 'b'], q: 'x' });
  });

  it('no parameters → {} is forwarded as the JSON body {}', () => {
    expect(accepted(query('')).forward.body.toString()).toBe('{}');
  });
});

describe('query parameter pairs limit (spec Limits: 64)', () => {
  const pairs = (n: number) => Array.from({ length: n }, (_, i) => `p${i}=${i}`).join('&');

  it.each(['query', 'query_base64_json'] as const)(
    '%s: more than 64 query parameter pairs → 400 MALFORMED_QUERY_PARAM',
    (format) => {
      const result = readPayload(
        format,
        request({ rawQuery: `${pairs(64)}&data=e30` }),
        settings({ base64ParamName: 'data' }),
      );
      expect(result).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_QUERY_PARAM' });
    },
  );

  it.each(['query', 'query_base64_json'] as const)('%s: exactly 64 pairs are accepted', (format) => {
    expect(
      readPayload(format, request({ rawQuery: `${pairs(63)}&data=e30` }), settings({ base64ParamName: 'data' })).ok,
    ).toBe(true);
  });

  it('names without `=` count as pairs; empty segments do not', () => {
    expect(query(`${pairs(64)}&bare`)).toMatchObject({ status: 400, code: 'MALFORMED_QUERY_PARAM' });
    expect(query(`${pairs(64)}&&&`).ok).toBe(true);
  });

  it.each(['json', 'none'] as const)('%s: the limit does not apply (the query string is not the payload)', (format) => {
    const result = readPayload(
      format,
      request({ contentType: 'application/json', rawBody: Buffer.from('{}'), rawQuery: pairs(100) }),
      settings(),
    );
    expect(result.ok).toBe(true);
  });
});

describe('413 PAYLOAD_TOO_LARGE: query string larger than the plan payload limit', () => {
  it.each(['query', 'query_base64_json'] as const)('%s', (format) => {
    const rawQuery = `data=${'e30'.padEnd(200, 'A')}`;
    const small = settings({ base64ParamName: 'data', limits: { payloadBytes: 100 } });
    expect(readPayload(format, request({ rawQuery }), small)).toMatchObject({
      ok: false,
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('a query string exactly at the limit is accepted', () => {
    const rawQuery = 'a='.padEnd(100, 'x');
    expect(readPayload('query', request({ rawQuery }), settings({ limits: { payloadBytes: 100 } })).ok).toBe(true);
  });
});

describe('For None, Query Parameters and Base64 JSON the request body is ignored for any method and any content type', () => {
  const bodies = [
    ['POST', 'application/json', '{"ignored":true}'],
    ['PUT', 'multipart/form-data; boundary=x', '--x\r\n'],
    ['PATCH', 'application/octet-stream', '\u0000\u0001'],
    ['GET', undefined, ''],
    ['HEAD', 'text/html', '<p>'],
    ['DELETE', 'application/xml', 'not even xml'],
  ] as const;

  it.each(bodies)(
    'None: %s with Content-Type %s → empty payload, webhook target gets an empty body',
    (method, contentType, body) => {
      const payload = accepted(
        readPayload('none', request({ method, contentType, rawBody: Buffer.from(body), rawQuery: 'a=1' }), settings()),
      );
      expect(payload.data).toBeUndefined();
      expect(payload.forward).toEqual({ content_type: null, body: Buffer.alloc(0) });
    },
  );

  it.each(bodies)(
    'Query Parameters: %s with Content-Type %s → payload from the query only',
    (method, contentType, body) => {
      const payload = accepted(
        readPayload('query', request({ method, contentType, rawBody: Buffer.from(body), rawQuery: 'a=1' }), settings()),
      );
      expect(payload.data).toEqual({ a: '1' });
    },
  );

  it.each(bodies)(
    'Base64 JSON: %s with Content-Type %s → payload from the parameter only',
    (method, contentType, body) => {
      const payload = accepted(
        readPayload(
          'query_base64_json',
          request({ method, contentType, rawBody: Buffer.from(body), rawQuery: 'data=e30' }),
          settings({ base64ParamName: 'data' }),
        ),
      );
      expect(payload.data).toEqual({});
    },
  );

  it('None: an oversized body is ignored too (no 413)', () => {
    const payload = accepted(
      readPayload('none', request({ rawBody: Buffer.alloc(1000) }), settings({ limits: { payloadBytes: 10 } })),
    );
    expect(payload.forward.body.length).toBe(0);
  });
});
