import type { BodyFormat } from '@relay/endpoints';
import { readPayload } from './read-payload';
import { accepted, request, settings } from './test-helpers';

const read = (format: BodyFormat, contentType: string | undefined, body: string | Buffer, payloadBytes = 64 * 1024) =>
  readPayload(
    format,
    request({ contentType, rawBody: Buffer.isBuffer(body) ? body : Buffer.from(body) }),
    settings({ limits: { payloadBytes } }),
  );

const SAMPLE: Record<BodyFormat, string> = { json: '{"a":1}', form: 'a=1', xml: '<a>1</a>', text: 'a=1' };

describe('Accepted content types: JSON, form, XML and text accept only their content types', () => {
  it.each([
    ['json', 'application/json'],
    ['json', 'application/json; charset=utf-8'],
    ['json', 'Application/JSON;Charset=UTF-8'],
    ['form', 'application/x-www-form-urlencoded'],
    ['form', 'application/x-www-form-urlencoded; charset=UTF-8'],
    ['xml', 'application/xml'],
    ['xml', 'text/xml'],
    ['xml', 'text/xml; charset="utf-8"'],
    ['text', 'text/plain'],
    ['text', 'TEXT/PLAIN; charset=us-ascii'],
  ] as const)('%s accepts %s', (format, contentType) => {
    expect(read(format, contentType, SAMPLE[format]).ok).toBe(true);
  });

  it.each([
    ['json', 'text/plain'],
    ['json', 'application/vnd.api+json'],
    ['json', 'application/x-www-form-urlencoded'],
    ['form', 'application/json'],
    ['xml', 'application/json'],
    ['xml', 'application/atom+xml'],
    ['text', 'text/html'],
    ['text', 'application/json'],
    ['json', undefined],
    ['text', ''],
    ['json', 'garbage'],
  ] as const)('%s with Content-Type %s → 415 UNSUPPORTED_MEDIA_TYPE', (format, contentType) => {
    expect(read(format, contentType, SAMPLE[format])).toMatchObject({
      ok: false,
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
  });
});

describe('a Content-Type a delivery cannot carry is refused, never published', () => {
  const long = `application/json; x=${'y'.repeat(240)}`;

  it.each(['json', 'form', 'xml', 'text'] as const)(
    '%s: a Content-Type over 256 characters → 400 MALFORMED_HEADER',
    (format) => {
      expect(long.length).toBeGreaterThan(256);
      expect(read(format, long, SAMPLE[format])).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_HEADER' });
    },
  );

  it('256 characters are still read', () => {
    expect(read('json', `application/json; x=${'y'.repeat(256 - 20)}`, '{}').ok).toBe(true);
  });

  it.each(['none', 'query', 'query_base64_json'] as const)(
    '%s ignores the Content-Type (spec: "every Content-Type is accepted"), however long',
    (format) => {
      const result = readPayload(
        format,
        request({ method: 'POST', contentType: long, rawQuery: 'p=e30' }),
        settings({ base64ParamName: 'p' }),
      );
      expect(result.ok).toBe(true);
    },
  );
});

describe('multipart/form-data and file uploads are rejected; send metadata or a file URL instead', () => {
  it.each(['json', 'form', 'xml', 'text'] as const)(
    '%s endpoint: multipart/form-data → 415 naming multipart and the alternative',
    (format) => {
      const result = read(
        format,
        'multipart/form-data; boundary=----x',
        '------x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n...',
      );
      expect(result).toMatchObject({ ok: false, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
      expect(!result.ok && result.message).toMatch(/multipart/i);
      expect(!result.ok && result.message).toMatch(/metadata.*URL/i);
    },
  );

  it('other multipart types are refused the same way', () => {
    expect(!read('json', 'multipart/mixed; boundary=x', '').ok && 'refused').toBe('refused');
  });
});

describe('413 PAYLOAD_TOO_LARGE: body larger than the plan payload limit', () => {
  it.each(['json', 'form', 'xml', 'text'] as const)('%s', (format) => {
    const big =
      format === 'xml' ? `<a>${'x'.repeat(200)}</a>` : format === 'json' ? `"${'x'.repeat(200)}"` : 'x'.repeat(200);
    const contentType = {
      json: 'application/json',
      form: 'application/x-www-form-urlencoded',
      xml: 'application/xml',
      text: 'text/plain',
    }[format];
    expect(read(format, contentType, big, 100)).toMatchObject({ ok: false, status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(read(format, contentType, big, big.length).ok).toBe(true);
  });
});

describe('JSON', () => {
  it('JSON forwards the raw bytes unchanged with the original Content-Type', () => {
    const raw = '{ "b": 2,\n  "a": [1, 2.50, "\\u00e9"] }';
    const { data, forward } = accepted(read('json', 'application/json; charset=utf-8', raw));
    expect(data).toEqual({ b: 2, a: [1, 2.5, 'é'] });
    expect(forward).toEqual({ content_type: 'application/json; charset=utf-8', body: Buffer.from(raw) });
  });

  it.each([
    ['truncated', '{"a":'],
    ['empty body', ''],
    ['trailing garbage', '{"a":1} x'],
    ['single quotes', "{'a':1}"],
    ['invalid UTF-8', Buffer.from([0x22, 0xc3, 0x28, 0x22])],
  ])('malformed JSON body (%s) → 400 MALFORMED_PAYLOAD', (_case, body) => {
    expect(read('json', 'application/json', body)).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_PAYLOAD' });
  });

  it.each([
    ['an array root', '[1,2]', [1, 2]],
    ['a scalar root', '"x"', 'x'],
    ['a leading byte order mark', '\ufeff{"a":1}', { a: 1 }],
  ])('accepts %s', (_case, raw, expected) => {
    expect(accepted(read('json', 'application/json', raw)).data).toEqual(expected);
  });
});

describe('form (application/x-www-form-urlencoded)', () => {
  it('"the delivery body is the parsed payload" (spec "Events"): a flat object like the Query Parameters format, delivered as JSON', () => {
    const raw = 'name=Ada+Lovelace&tag=a&tag=b&empty=&bare&city=Z%C3%BCrich';
    const object = { name: 'Ada Lovelace', tag: ['a', 'b'], empty: '', bare: '', city: 'Zürich' };
    const { data, forward } = accepted(read('form', 'application/x-www-form-urlencoded; charset=UTF-8', raw));
    expect(data).toEqual(object);
    expect(forward.content_type).toBe('application/json');
    expect(JSON.parse(forward.body.toString('utf8'))).toEqual(object);
  });

  it('an empty form body is the empty object, delivered as {}', () => {
    const { data, forward } = accepted(read('form', 'application/x-www-form-urlencoded', ''));
    expect([data, forward.body.toString()]).toEqual([{}, '{}']);
  });

  it('a field named __proto__ is an ordinary key, delivered as one', () => {
    const { forward } = accepted(read('form', 'application/x-www-form-urlencoded', '__proto__=x&constructor=y'));
    expect(forward.body.toString()).toBe('{"__proto__":"x","constructor":"y"}');
  });
});

describe('plain text', () => {
  it('data is the body as a string; the target receives the original bytes and Content-Type', () => {
    const raw = '  line one\nline two  ';
    const { data, forward } = accepted(read('text', 'text/plain; charset=utf-8', raw));
    expect(data).toBe(raw);
    expect(forward).toEqual({ content_type: 'text/plain; charset=utf-8', body: Buffer.from(raw) });
  });

  it('an empty text body is accepted as the empty string', () => {
    expect(accepted(read('text', 'text/plain', '')).data).toBe('');
  });
});

describe('XML', () => {
  it('data is the parsed document; the target receives the original bytes and Content-Type', () => {
    const raw = '<?xml version="1.0"?><order id="7"><item>a</item><item>b</item><zip>007</zip></order>';
    const { data, forward } = accepted(read('xml', 'text/xml', raw));
    expect(data).toEqual({ order: { '@id': '7', item: ['a', 'b'], zip: '007' } });
    expect(forward).toEqual({ content_type: 'text/xml', body: Buffer.from(raw) });
  });

  it.each([
    ['unclosed element', '<a><b></a>'],
    ['not XML at all', 'hello'],
    ['empty body', ''],
    ['two root elements', '<a/><b/>'],
    ['a repeated root element', '<a/><a/>'],
    ['invalid UTF-8', Buffer.concat([Buffer.from('<a>'), Buffer.from([0xff]), Buffer.from('</a>')])],
  ])('malformed XML (%s) → 400 MALFORMED_PAYLOAD', (_case, body) => {
    expect(read('xml', 'application/xml', body)).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_PAYLOAD' });
  });
});
