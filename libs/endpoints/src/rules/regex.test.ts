import { RE2JS } from 're2js';
import {
  COMPILE_UNITS_PER_SIZE,
  compileCostBound,
  FOLDED_CLASS_UNITS,
  LazyPattern,
  programSizeBound,
  UNICODE_CLASS_UNITS,
} from './regex';

/**
 * The rule-cost estimate reads a pattern's program size from its source (docs/security.md "Rule
 * cost"); it must never be below what RE2 compiles, or a costly compile could pass as cheap.
 */
const ATOMS = [
  'a',
  'Z',
  'é',
  '\\.',
  '\\d',
  '\\S',
  '\\pL',
  '\\PN',
  '\\p{Greek}',
  '\\x41',
  '\\x{1F600}',
  '.',
  '^',
  '$',
  '\\b',
  '\\A',
  '\\z',
  '[a-z]',
  '[^0-9]',
  '[]a]',
  '[^]x-]',
  '[[:alpha:]_]',
  '[\\]\\[]',
  '\\Qa.b\\E',
  '\\Q{3}\\E',
  '{',
  'a{,3}',
  '()',
  '(?:)',
  '\\B',
];
const REPEATS = [
  '*',
  '+',
  '?',
  '*?',
  '+?',
  '??',
  '{0}',
  '{1}',
  '{3}',
  '{2,}',
  '{0,4}',
  '{2,5}',
  '{7}?',
  '{3,}?',
  '{0,}',
  '{1,}',
  '{0,1}',
  '{1,1}',
  '{12}',
  '{4,9}',
  '{20,}',
];

/** A deterministic pseudo-random pattern of `depth` levels of groups, repetitions and alternation. */
function generate(next: () => number, depth: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const pieces: string[] = [];
  const count = 1 + Math.floor(next() * 4);
  for (let i = 0; i < count; i++) {
    let piece: string;
    if (depth > 0 && next() < 0.4) {
      const open = pick(['(', '(?:', '(?P<n' + i + '>', '(?i:', '(?s:']);
      const inner = [generate(next, depth - 1)];
      if (next() < 0.3) inner.push(generate(next, depth - 1));
      piece = `${open}${inner.join('|')})`;
    } else piece = pick(ATOMS);
    if (next() < 0.5) piece += pick(REPEATS);
    if (next() < 0.1) piece = '(?i)' + piece;
    pieces.push(piece);
  }
  return pieces.join(next() < 0.15 ? '|' : '');
}

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('programSizeBound: a pattern’s RE2 program size from its source, never below the compiled one', () => {
  const sizeOf = (pattern: string, flags = 0): number | null => {
    try {
      return RE2JS.compile(pattern, flags).programSize();
    } catch {
      return null; // not a pattern RE2 accepts: never stored
    }
  };

  it.each([
    'a',
    'abc',
    '^\\S+@\\S+$',
    '[a-z]{2,63}\\.[a-z]{2,10}',
    '\\pL[\\pL\\pN]{30}!',
    '(?:(?:(?:a{10}){10}){10})',
    '((a|b|c){5}x){20}',
    '(?i)(?:[a-z]+\\d{1,3}){1,40}',
    '(a{2,}){3,}',
    'x{1000}',
    '(?:\\p{Greek}|[^\\x00-\\x1f]){100}',
    'a|b|c|d|e|f|g',
    '(?P<year>\\d{4})-(?P<m>\\d{2})',
  ])('%s', (pattern) => {
    for (const flags of [0, RE2JS.CASE_INSENSITIVE]) {
      expect(programSizeBound(pattern)).toBeGreaterThanOrEqual(sizeOf(pattern, flags)!);
    }
  });

  it('holds for 6,000 generated patterns with nested groups, counted repetitions and alternation', () => {
    let next = seeded(19);
    let compared = 0;
    for (let n = 0; n < 6000; n++) {
      if (n % 1000 === 0) next = seeded(n + 1);
      const pattern = generate(next, 3);
      for (const flags of [0, RE2JS.CASE_INSENSITIVE]) {
        const size = sizeOf(pattern, flags);
        if (size === null) continue;
        compared++;
        if (programSizeBound(pattern) < size) throw new Error(`bound below ${size} for ${pattern}`);
      }
    }
    expect(compared).toBeGreaterThan(8000);
  });

  it('stays within 2× the compiled size for ordinary patterns and the worst admitted one, so they are not overcounted into the pool', () => {
    const ratios = [
      '^order\\.',
      '^\\S+@\\S+$',
      '[0-9]+',
      'a[ab]{5}c',
      '\\pL[\\pL\\pN]{30}!',
      '[a-z]{2,63}\\.com',
      '(?:a|b|aa|bb|ab|ba){767}c',
    ].map((pattern) => programSizeBound(pattern) / sizeOf(pattern)!);
    expect(Math.max(...ratios)).toBeLessThanOrEqual(2);
  });
});

describe('compile cost from the source: what program size does not show', () => {
  const plain = (pattern: string) => 100 + 2 * pattern.length + programSizeBound(pattern) * COMPILE_UNITS_PER_SIZE;

  it('a pattern without Unicode classes or folding: a base, its source and its program size', () => {
    for (const pattern of ['^\\S+@\\S+$', 'a[ab]{5}c', '[\\x{0}-\\x{10FFFF}]', '\\[a\\]'])
      expect(compileCostBound(pattern)).toBe(plain(pattern));
  });

  it('each Unicode class adds its ranges: \\pL, \\P{Greek}, inside brackets too', () => {
    expect(compileCostBound('\\pL[\\pL\\pN]{30}!')).toBe(plain('\\pL[\\pL\\pN]{30}!') + 3 * UNICODE_CLASS_UNITS);
    expect(compileCostBound('\\P{Greek}')).toBe(plain('\\P{Greek}') + UNICODE_CLASS_UNITS);
  });

  it.each([
    ['(?i)[\\x{100}-\\x{1E900}]', 1],
    ['(?i:[a-z])(?-i:[0-9])', 2],
    ['(?si)\\pL[^a]', 2],
  ])('folding anywhere (%s): every class is widened by its fold orbits, literals doubled', (pattern, classes) => {
    const folded = 100 + 2 * pattern.length + programSizeBound(pattern) * COMPILE_UNITS_PER_SIZE * 2;
    expect(compileCostBound(pattern)).toBe(folded + classes * FOLDED_CLASS_UNITS);
  });

  it("the rule's case-insensitive option folds as (?i) does", () => {
    expect(compileCostBound('[a-z]', true)).toBe(compileCostBound('(?i)[a-z]') - 2 * '(?i)'.length);
  });
});

describe('LazyPattern: costed before compiling, compiled when first tested', () => {
  it('counts its compile until the first test, then its program size × the text only', () => {
    const re = new LazyPattern('a[ab]{5}c');
    const bound = programSizeBound('a[ab]{5}c');
    expect(re.cost(10)).toBe(bound * 10 + compileCostBound('a[ab]{5}c'));
    expect(re.test('xaababbcx')).toBe(true);
    const size = RE2JS.compile('a[ab]{5}c').programSize();
    expect(re.cost(10)).toBe(size * 10);
  });
});
