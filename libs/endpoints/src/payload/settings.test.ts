import { methodAllowedForFormat } from './formats';
import { validatePayloadSettings } from './settings';

const base64 = (query_param_name: unknown, extra: object = {}) =>
  validatePayloadSettings({ payload_format: 'query_base64_json', query_param_name, ...extra });

describe('Base64 JSON query parameter name (spec Endpoint: required, at most 255 characters; no spaces, no control characters, no #, no ?)', () => {
  it.each([
    ['a plain name', 'data'],
    ['+ and & (the sender percent-encodes them)', 'a+b&c'],
    ['= and %', 'x=%y'],
    ['non-ASCII letters', 'données'],
    ['exactly 255 characters', 'p'.repeat(255)],
    ['255 characters outside the BMP', '😀'.repeat(255)],
  ])('accepts %s', (_case, name) => {
    expect(base64(name)).toEqual({
      ok: true,
      value: { payload_format: 'query_base64_json', query_param_name: name, query_param_required: true },
    });
  });

  it.each([
    ['a missing name', undefined, 'is required'],
    ['an empty name', '', 'is required'],
    ['256 characters', 'p'.repeat(256), 'at most 255'],
    ['a space', 'my data', 'spaces'],
    ['a non-breaking space', 'my\u00a0data', 'spaces'],
    ['a tab', 'a\tb', 'spaces'],
    ['a control character', 'a\u0000b', 'control characters'],
    ['DEL', 'a\u007fb', 'control characters'],
    ['#', 'a#b', '# or ?'],
    ['?', 'a?b', '# or ?'],
  ])('rejects %s', (_case, name, message) => {
    expect(base64(name)).toEqual({
      ok: false,
      errors: [{ field: 'query_param_name', message: expect.stringContaining(message) }],
    });
  });

  it('required parameter control: boolean, default enabled', () => {
    expect(base64('d', { query_param_required: false })).toMatchObject({
      ok: true,
      value: { query_param_required: false },
    });
    expect(base64('d', { query_param_required: 'no' })).toMatchObject({
      ok: false,
      errors: [{ field: 'query_param_required' }],
    });
  });

  it('both settings exist only for the Base64 JSON format', () => {
    expect(
      validatePayloadSettings({ payload_format: 'query', query_param_name: 'd', query_param_required: true }),
    ).toEqual({
      ok: false,
      errors: [
        { field: 'query_param_name', message: expect.stringContaining('only applies') },
        { field: 'query_param_required', message: expect.stringContaining('only applies') },
      ],
    });
    expect(validatePayloadSettings({ payload_format: 'json' })).toEqual({
      ok: true,
      value: { payload_format: 'json' },
    });
  });

  it('rejects an unknown payload format', () => {
    expect(validatePayloadSettings({ payload_format: 'yaml' })).toMatchObject({
      ok: false,
      errors: [{ field: 'payload_format' }],
    });
  });
});

describe('Ingest method rule: GET and HEAD may be used only with None, Query Parameters and Base64 JSON', () => {
  it.each([
    ['GET', 'none', true],
    ['HEAD', 'query', true],
    ['get', 'query_base64_json', true],
    ['GET', 'json', false],
    ['HEAD', 'form', false],
    ['GET', 'xml', false],
    ['GET', 'text', false],
    ['POST', 'query', true],
    ['PUT', 'query_base64_json', true],
    ['DELETE', 'none', true],
    ['PATCH', 'json', true],
  ] as const)('%s with %s → %s', (method, format, allowed) => {
    expect(methodAllowedForFormat(method, format)).toBe(allowed);
  });
});
