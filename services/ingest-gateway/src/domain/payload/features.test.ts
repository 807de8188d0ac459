import { featuresFor } from './features';

describe('Feature interaction (spec "Payload format rules")', () => {
  it.each([
    ['Field validation — None: disabled', 'none', undefined, false],
    ['Field validation — Query Parameters: enabled (always an object)', 'query', {}, true],
    [
      'Field validation — Base64 JSON: only when the decoded root is an object (object)',
      'query_base64_json',
      { a: 1 },
      true,
    ],
    [
      'Field validation — Base64 JSON: only when the decoded root is an object (array)',
      'query_base64_json',
      [{ a: 1 }],
      false,
    ],
    [
      'Field validation — Base64 JSON: only when the decoded root is an object (scalar)',
      'query_base64_json',
      42,
      false,
    ],
    [
      'Field validation — Base64 JSON: only when the decoded root is an object (null)',
      'query_base64_json',
      null,
      false,
    ],
    [
      'Field validation — Base64 JSON: only when the decoded root is an object (empty payload)',
      'query_base64_json',
      undefined,
      false,
    ],
    ['Field validation — JSON: enabled', 'json', { a: 1 }, true],
    ['Field validation — form: enabled', 'form', { a: '1' }, true],
    ['Field validation — XML: enabled', 'xml', { a: '1' }, true],
    ['Field validation — plain text: disabled (a string has no fields)', 'text', 'abc', false],
  ] as const)('%s', (_row, format, data, expected) => {
    expect(featuresFor(format, data).fieldValidation).toBe(expected);
  });

  it.each([
    ['Captcha — None: disabled', 'none', undefined, false],
    ['Captcha — Query Parameters: disabled', 'query', { 'h-captcha-response': 't' }, false],
    ['Captcha — Base64 JSON: disabled', 'query_base64_json', { 'h-captcha-response': 't' }, false],
    ['Captcha — JSON body: enabled', 'json', {}, true],
    ['Captcha — form body: enabled', 'form', {}, true],
    ['Captcha — XML body: enabled', 'xml', {}, true],
    ['Captcha — plain text: disabled (only JSON, form or XML bodies carry a token)', 'text', '', false],
  ] as const)('%s', (_row, format, data, expected) => {
    expect(featuresFor(format, data).captcha).toBe(expected);
  });

  it.each([
    ['none', false],
    ['query', true],
    ['query_base64_json', true],
    ['json', true],
    ['form', true],
    ['xml', true],
    ['text', true],
  ] as const)('Body filters — %s: %s', (format, expected) => {
    expect(featuresFor(format, {}).bodyFilters).toBe(expected);
  });
});
