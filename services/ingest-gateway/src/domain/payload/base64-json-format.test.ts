import { readPayload } from './read-payload';
import type { ReadPayloadSettings } from './read-payload';
import { accepted, b64, request, settings } from './test-helpers';

const DOC = '{"event":"order.paid","amount":12.5,"note":"~~~>>>???"}'; // Base64 has both + and /
const base64Json = (rawQuery: string, over: Partial<ReadPayloadSettings> = {}) =>
  readPayload(
    'query_base64_json',
    request({ method: 'GET', rawQuery }),
    settings({ base64ParamName: 'data', ...over }),
  );

describe('Query Parameters (Base64 JSON): the named parameter holds a Base64 encoding of a JSON document', () => {
  it('Base64 JSON: the standard alphabet is accepted', () => {
    const value = b64(DOC);
    expect(value).toMatch(/[+/]/);
    expect(accepted(base64Json(`data=${encodeURIComponent(value)}`)).data).toEqual(JSON.parse(DOC));
  });

  it('Base64 JSON: the URL-safe alphabet (- and _ for + and /) is accepted', () => {
    const value = b64(DOC, 'url');
    expect(value).toMatch(/[-_]/);
    expect(accepted(base64Json(`data=${value}`)).data).toEqual(JSON.parse(DOC));
  });

  it('Base64 JSON: an unescaped + in the value is accepted', () => {
    const value = b64(DOC);
    expect(value).toContain('+');
    expect(accepted(base64Json(`data=${value}`)).data).toEqual(JSON.parse(DOC));
  });

  it.each([
    ['padded', b64('{"a":1}')],
    ['unpadded', b64('{"a":1}', 'standard', false)],
    ['padding percent-encoded', b64('{"a":1}').replace(/=/g, '%3D')],
  ])('Base64 JSON: %s values are accepted', (_case, value) => {
    expect(accepted(base64Json(`data=${value}`)).data).toEqual({ a: 1 });
  });

  it.each([
    ['an object', '{"a":{"b":[1,2]}}'],
    ['an array', '[1,"two",{"three":3}]'],
    ['a number', '42'],
    ['a string', '"hello"'],
    ['a boolean', 'true'],
    ['null', 'null'],
    ['formatting kept as sent', '{ "b" : 2,\n  "a" : 1 }'],
  ])('Base64 JSON: the decoded JSON is passed to all targets unchanged — %s', (_case, json) => {
    const payload = accepted(base64Json(`data=${b64(json, 'url')}`));
    expect(payload.data).toEqual(JSON.parse(json));
    expect(payload.forward).toEqual({ content_type: 'application/json', body: Buffer.from(json) });
  });

  it('Base64 JSON: parameter absent with the required control on → 400 MALFORMED_QUERY_PARAM', () => {
    expect(base64Json('other=1')).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_QUERY_PARAM' });
  });

  it('Base64 JSON: parameter absent with the required control off → an empty payload is used', () => {
    const payload = accepted(base64Json('other=1', { base64ParamRequired: false }));
    expect(payload.data).toBeUndefined();
    expect(payload.forward).toEqual({ content_type: null, body: Buffer.alloc(0) });
  });

  it.each([
    ['a character outside both alphabets', 'eyJh*joxfQ'],
    ['whitespace inside the value', 'eyJh%20IjoxfQ'],
    ['a length no encoding produces (4n+1)', 'eyJhI'],
    ['misplaced padding', 'eyJ=hIjoxfQ'],
    ['wrong padding length', 'eyJhIjoxfQ='],
  ])('Base64 JSON: invalid Base64 (%s) → 400 MALFORMED_QUERY_PARAM', (_case, value) => {
    expect(base64Json(`data=${value}`)).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_QUERY_PARAM' });
  });

  it.each([
    ['text that is not JSON', b64('hello world')],
    ['two JSON documents', b64('{}{}')],
    ['an empty value', ''],
    ['a name without =', null],
    ['invalid UTF-8', Buffer.from([0x22, 0xff, 0x22]).toString('base64')],
  ])('Base64 JSON: decoded value not valid JSON (%s) → 400 MALFORMED_QUERY_PARAM', (_case, value) => {
    const rawQuery = value === null ? 'data' : `data=${value}`;
    expect(base64Json(rawQuery)).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_QUERY_PARAM' });
  });

  it.each([
    ['+ (percent-encoded by the sender)', 'a+b', 'a%2Bb'],
    ['&', 'a&b', 'a%26b'],
    ['non-ASCII', 'données', 'donn%C3%A9es'],
  ])('query parameter name with %s matches the percent-encoded name', (_case, name, sent) => {
    const result = base64Json(`x=1&${sent}=${b64('{"ok":true}')}`, { base64ParamName: name });
    expect(accepted(result).data).toEqual({ ok: true });
  });

  it('the first parameter with the name is used when it repeats', () => {
    expect(accepted(base64Json(`data=${b64('1')}&data=${b64('2')}`)).data).toBe(1);
  });

  it('other parameters are not part of the payload', () => {
    expect(accepted(base64Json(`utm=x&data=${b64('{"a":1}')}`)).data).toEqual({ a: 1 });
  });

  it('an endpoint record without a parameter name is a configuration error, not a sender error', () => {
    expect(() => readPayload('query_base64_json', request({ rawQuery: 'data=e30' }), settings())).toThrow(
      /query parameter name/,
    );
  });
});
