import { jsonCodeBlock, readPayload, renderTemplate, retryAfterHeaderMs, templateData, truncateText } from './template';

const payload = (body: string, type: string | null) =>
  readPayload({ content_type: type, body_base64: Buffer.from(body).toString('base64') });

describe('chat message templates: {{path}} substitution only', () => {
  const data = { a: { b: [10, { c: 'x' }] }, s: 'str', n: 0, t: true, z: null, o: { k: 1 } };
  it.each([
    ['a nested path', '{{a.b.1.c}}', 'x'],
    ['spaces inside the braces', '{{ s }}', 'str'],
    ['numbers and booleans', '{{n}} {{t}}', '0 true'],
    ['missing → empty', '[{{nope}}][{{a.x.y}}][{{s.length.x}}]', '[][][]'],
    ['null → empty', '[{{z}}]', '[]'],
    ['objects and arrays → JSON', '{{o}} {{a.b}}', '{"k":1} [10,{"c":"x"}]'],
    ['the whole payload as {{.}}', '{{.}}', JSON.stringify(data)],
    ['no prototype access', '[{{constructor}}][{{__proto__}}][{{o.toString}}]', '[][][]'],
    ['no expressions: the tag is a path, never code', '[{{process.exit()}}][{{a.b[0]}}]', '[][]'],
    ['unbalanced braces are left as text', '{{s} {s}}', '{{s} {s}}'],
  ])('%s', (_n, template, expected) => {
    expect(renderTemplate(template, data)).toBe(expected);
  });

  it('escapes substituted values only', () => {
    expect(renderTemplate('<b>{{s}}</b>', { s: '<i>' }, (v) => v.toUpperCase())).toBe('<b><I></b>');
  });

  it('reads form bodies as fields (repeated name → array)', () => {
    expect(templateData(payload('a=1&b=2&b=3', 'application/x-www-form-urlencoded'))).toEqual({
      a: '1',
      b: ['2', '3'],
    });
  });
});

describe('reading the delivered payload', () => {
  it.each([
    ['JSON', '{"a":1}', 'application/json; charset=utf-8', { kind: 'json', value: { a: 1 } }],
    ['+json types', '[1]', 'application/vnd.x+json', { kind: 'json', value: [1] }],
    ['JSON that does not parse → text', '{x', 'application/json', { kind: 'text', text: '{x', form: false }],
    ['text', 'hi', 'text/plain', { kind: 'text', text: 'hi', form: false }],
    ['empty', '', null, { kind: 'empty' }],
  ])('%s', (_n, body, type, expected) => {
    expect(payload(body, type)).toEqual(expected);
  });
});

describe('text helpers', () => {
  it('truncateText keeps short text and marks cut text', () => {
    expect(truncateText('abc', 3)).toBe('abc');
    expect(truncateText('abcdef', 4, '…')).toBe('abc…');
    expect(truncateText('abcdef', 1, '...')).toBe('a');
  });

  it('jsonCodeBlock fits the limit and still closes the fence', () => {
    const block = jsonCodeBlock({ long: 'x'.repeat(500) }, 100, { marker: '\n…', language: 'json' });
    expect(block).toHaveLength(100);
    expect(block.startsWith('```json\n')).toBe(true);
    expect(block.endsWith('\n…\n```')).toBe(true);
  });

  it.each([
    [{ 'retry-after': '7' }, 7000],
    [{ 'retry-after': '0.25' }, 250],
    [{ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }, undefined],
    [{}, undefined],
  ])('retryAfterHeaderMs(%j) = %s', (headers, ms) => {
    expect(retryAfterHeaderMs(headers)).toBe(ms);
  });
});
