import { MAX_JSON_DEPTH, nestingExceeds } from './json-text';
import { MAX_FORM_FIELDS, readPayload } from './read-payload';
import { accepted, b64, request, settings } from './test-helpers';

/**
 * Limits on a payload's shape, applied at ingest (docs/payload-formats.md "Depth and size of a
 * payload"): the spec states none; these keep every accepted payload safe to walk and serialise.
 */
const big = settings({ limits: { payloadBytes: 10 * 1024 * 1024 }, base64ParamName: 'p' });
const json = (text: string) =>
  readPayload('json', request({ contentType: 'application/json', rawBody: Buffer.from(text) }), big);
const form = (text: string) =>
  readPayload('form', request({ contentType: 'application/x-www-form-urlencoded', rawBody: Buffer.from(text) }), big);
const base64 = (text: string) =>
  readPayload('query_base64_json', request({ method: 'GET', rawQuery: `p=${encodeURIComponent(b64(text))}` }), big);
const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

describe(`JSON nesting: at most ${MAX_JSON_DEPTH} levels`, () => {
  it.each([
    ['arrays', arrays],
    ['objects', objects],
  ])(`%s nested ${MAX_JSON_DEPTH} deep are accepted; one more → 400 MALFORMED_PAYLOAD`, (_kind, nest) => {
    expect(accepted(json(nest(MAX_JSON_DEPTH))).data).toBeDefined();
    const deeper = json(nest(MAX_JSON_DEPTH + 1));
    expect(deeper).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_PAYLOAD' });
    expect(!deeper.ok && deeper.message).toMatch(/nested deeper than 64 levels/);
  });

  it('100,000 levels → 400 MALFORMED_PAYLOAD, without exhausting the stack', () => {
    expect(json(arrays(100_000))).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_PAYLOAD' });
  });

  it('brackets inside strings (escaped quotes too) are text, not nesting', () => {
    const text = JSON.stringify({ a: `\\"${'['.repeat(1000)}`, b: '"{{{{' });
    expect(nestingExceeds(text, 2)).toBe(false);
    expect(accepted(json(text)).data).toEqual(JSON.parse(text));
  });

  it(`Base64 JSON nested deeper than ${MAX_JSON_DEPTH} levels → 400 MALFORMED_QUERY_PARAM`, () => {
    expect(accepted(base64(arrays(MAX_JSON_DEPTH))).data).toBeDefined();
    expect(base64(arrays(MAX_JSON_DEPTH + 1))).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_QUERY_PARAM' });
    expect(base64(objects(50_000))).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_QUERY_PARAM' });
  });

  it('every accepted JSON payload can be serialised again (what targets and templates do)', () => {
    expect(() => JSON.stringify(accepted(json(objects(MAX_JSON_DEPTH))).data)).not.toThrow();
  });
});

describe(`form bodies: at most ${MAX_FORM_FIELDS} fields`, () => {
  const fields = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=v`).join('&');

  it(`${MAX_FORM_FIELDS} fields are accepted; one more → 400 MALFORMED_PAYLOAD`, () => {
    expect(Object.keys(accepted(form(fields(MAX_FORM_FIELDS))).data as object)).toHaveLength(MAX_FORM_FIELDS);
    const over = form(fields(MAX_FORM_FIELDS + 1));
    expect(over).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_PAYLOAD' });
    expect(!over.ok && over.message).toMatch(/more than 1000 fields/);
  });

  it('a 1 MB body of 100,000 fields is refused before it is parsed', () => {
    expect(form(fields(100_000))).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_PAYLOAD' });
  });
});
