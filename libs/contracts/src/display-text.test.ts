import { displayText } from './display-text';

describe('displayText: what a display shows of text from outside', () => {
  it.each([
    ['err\x1b[31mRED\x1b[0m', 'err\\u001B[31mRED\\u001B[0m'],
    ['a\r\nb\tc\u0000', 'a\\u000D\\u000Ab\\u0009c\\u0000'],
    ['del\u007f c1\u009b', 'del\\u007F c1\\u009B'],
    ['invoice\u202Efdp.exe', 'invoice\\u202Efdp.exe'],
    ['a\u200Bb\u2066c\u2069\uFEFF', 'a\\u200Bb\\u2066c\\u2069\\uFEFF'],
    ['tag\u{E0041}', 'tag\\u{E0041}'],
  ])('%j → %s', (text, shown) => {
    expect(displayText(text)).toBe(shown);
  });

  it('leaves printable text of any script as it is', () => {
    const text = 'Zoë 東京 مرحبا 🚀 → "quoted" \\ back';
    expect(displayText(text)).toBe(text);
  });
});
