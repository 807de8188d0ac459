import { RE2JS } from 're2js';
import type { CodeOptions } from 'ajv';

/** ajv does not export the type by name. */
type RegExpEngine = NonNullable<CodeOptions['regExp']>;

/**
 * Every user-supplied pattern (body filters, field validation) runs on RE2 (re2js): matching
 * time is linear in the input, so a pattern such as `^(a+)+$` cannot stall the gateway on a
 * crafted body. RE2 has no backreferences and no lookaround; such patterns are refused when
 * the endpoint is saved, never discovered at request time.
 */
const MAX_PATTERN_LENGTH = 1024;
/** RE2's own cost measure; bounds the memory one compiled pattern may take. */
const MAX_PATTERN_PROGRAM_SIZE = 10_000;

/** `null` when RE2 accepts the pattern, otherwise a message for the user. */
export function checkPattern(pattern: string): string | null {
  if (pattern.length === 0) return 'must not be empty';
  if (pattern.length > MAX_PATTERN_LENGTH) return `must be at most ${MAX_PATTERN_LENGTH} characters`;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (err) {
    return (
      unsupportedReason(pattern) ??
      `is not a valid RE2 pattern: ${err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : 'syntax error'}`
    );
  }
  return compiled.programSize() > MAX_PATTERN_PROGRAM_SIZE ? 'is too complex (reduce repetition counts)' : null;
}

const RE2_ONLY = '(patterns use RE2 syntax, which guarantees linear-time matching)';

/** Names the backtracking-only feature a rejected pattern probably used. */
function unsupportedReason(pattern: string): string | null {
  if (/\(\?<?[=!]/.test(pattern)) return `lookahead and lookbehind are not supported ${RE2_ONLY}`;
  if (/\\[1-9]|\\k</.test(pattern)) return `backreferences are not supported ${RE2_ONLY}`;
  return null;
}

/** Compiles a pattern already accepted by {@link checkPattern}; unanchored search semantics. */
export function compilePattern(pattern: string, caseInsensitive = false): RE2JS {
  return RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
}

/**
 * What compiling costs per unit of RE2 program size, in rule-cost units (docs/security.md "Rule
 * cost"); {@link compileCostBound} adds what program size does not show.
 */
export const COMPILE_UNITS_PER_SIZE = 2;

/**
 * A stored pattern RE2 cannot compile: saved before a check it now fails, or written to the store
 * by other means. Compiling is lazy, so this surfaces when the rule first runs; the endpoint
 * then answers 503 endpoint_unavailable, as it does for settings that cannot be prepared.
 */
export class UnusablePatternError extends Error {}

/**
 * A pattern compiled when first tested, so that knowing its cost does not compile it:
 * `size` bounds its program size from the source ({@link programSizeBound}) until it is compiled,
 * then is the program's own.
 */
export class LazyPattern {
  private re: RE2JS | null = null;
  /** kept, so that a broken pattern is not compiled again on every request */
  private unusable: UnusablePatternError | null = null;
  private readonly bound: number;
  private readonly compileBound: number;

  constructor(
    private readonly pattern: string,
    private readonly caseInsensitive = false,
  ) {
    this.bound = programSizeBound(pattern);
    this.compileBound = compileCostBound(pattern, caseInsensitive, this.bound);
  }

  test(text: string): boolean {
    return this.compiled().test(text);
  }

  testExact(text: string): boolean {
    return this.compiled().testExact(text);
  }

  private get size(): number {
    return this.re?.programSize() ?? this.bound;
  }

  /** What testing `length` characters costs, compiling included while the pattern is not compiled. */
  cost(length: number): number {
    return this.size * length + (this.re === null ? this.compileBound : 0);
  }

  private compiled(): RE2JS {
    if (this.re !== null) return this.re;
    if (this.unusable !== null) throw this.unusable;
    try {
      return (this.re = compilePattern(this.pattern, this.caseInsensitive));
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw (this.unusable = new UnusablePatternError(`a stored pattern cannot be compiled (${why})`));
    }
  }
}

/**
 * What building one character class may add to a compile, in rule-cost units, beyond its
 * instruction: program size does not show it. A Unicode class (`\pL`, `\P{Greek}`) is hundreds of
 * ranges, more once negated; under case folding every class is widened by each range's fold
 * orbits, which for a wide range (`(?i)[\x{100}-\x{1E900}]`) is milliseconds. Measured by
 * `bench/hostile-rules.js` (calibration).
 */
export const UNICODE_CLASS_UNITS = 500;
export const FOLDED_CLASS_UNITS = 20_000;
/** what every compile costs whatever the pattern (parsing, simplifying, the program's arrays) */
const COMPILE_BASE_UNITS = 100;
/** parsing, per character of the source: a class's ranges, flag groups, assertions */
const SOURCE_UNITS = 2;
/** `(?i)`, `(?si:`, `(?i-m)`: case folding somewhere in the pattern */
const FOLD_FLAG = /\(\?[a-zA-Z]*i[a-zA-Z]*(-[a-zA-Z]*)?[:)]/;

/**
 * An upper bound, in rule-cost units, of what compiling a valid pattern costs, read from its source
 * without compiling it: a base, its source's length, its program size bound × COMPILE_UNITS_PER_SIZE
 * (twice that when folding: each literal gets its fold orbit), and each character class as above. Folding anywhere
 * counts for the whole pattern (scopes are not followed: the bound only grows).
 */
export function compileCostBound(
  pattern: string,
  caseInsensitive = false,
  sizeBound = programSizeBound(pattern),
): number {
  const folded = caseInsensitive || FOLD_FLAG.test(pattern);
  let units =
    COMPILE_BASE_UNITS + SOURCE_UNITS * pattern.length + sizeBound * COMPILE_UNITS_PER_SIZE * (folded ? 2 : 1);
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[++i];
      if (next === 'p' || next === 'P') units += folded ? FOLDED_CLASS_UNITS : UNICODE_CLASS_UNITS;
    } else if (c === '[') {
      if (folded) units += FOLDED_CLASS_UNITS;
    }
  }
  return units;
}

const REPETITION = /\{(\d+)(,(\d*))?\}/y;
const NAMED_GROUP = /\?P?<[^>]*>/y;
const FLAGS_GROUP = /\?[a-zA-Z-]*([:)])/y;
const BRACED_ESCAPE = /\\[pPx]\{[^}]*\}/y;

/** Instructions every program has besides its pattern's: fail, match, and slack for the start. */
const PROGRAM_OVERHEAD = 4;
/** What an operator (`*`, `+`, `?`, `|`, a capture, one copy of a counted repetition) may add. */
const OPERATOR_SIZE = 2;

/**
 * An upper bound of RE2's program size for a valid pattern, read from its source without
 * compiling it (linear in the pattern's length). Every atom (a literal character, a class, an
 * escape, `.`, `^`) compiles to at most one instruction, every operator to at most
 * OPERATOR_SIZE; a counted repetition `x{n,m}` is expanded as RE2 does, to n copies of x and
 * m − n optional ones (`x{n,}`: n copies and a loop).
 * Where the source is not read exactly (`\Q…\E` before a repetition) the bound only grows.
 */
export function programSizeBound(pattern: string): number {
  let i = 0;
  const at = (re: RegExp): RegExpExecArray | null => {
    re.lastIndex = i;
    return re.exec(pattern);
  };
  const alternation = (): number => {
    let size = sequence();
    while (pattern[i] === '|') {
      i++;
      size += sequence() + OPERATOR_SIZE;
    }
    return size;
  };
  const sequence = (): number => {
    let size = 0;
    while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') {
      let atom = atomSize();
      for (;;) {
        const c = pattern[i];
        if (c === '*' || c === '+' || c === '?') {
          i++;
          atom += OPERATOR_SIZE;
        } else if (c === '{') {
          const rep = at(REPETITION);
          if (rep === null) break;
          i += rep[0].length;
          const min = Number(rep[1]);
          // x{n}: n copies; x{n,m}: then m − n optional ones; x{n,}: then a loop
          if (rep[2] === undefined) atom = Math.max(min * atom, 1);
          else if (rep[3] === '') atom = Math.max(min, 1) * atom + OPERATOR_SIZE;
          else atom = Math.max(min * atom + (Number(rep[3]) - min) * (atom + OPERATOR_SIZE), 1);
        } else break;
        if (pattern[i] === '?') i++; // non-greedy: the same program
      }
      size += atom;
    }
    return Math.max(size, 1); // an empty one compiles to a no-op
  };
  const atomSize = (): number => {
    const c = pattern[i];
    if (c === '(') return groupSize();
    if (c === '[') {
      skipClass();
      return 1;
    }
    if (c === '\\') return escapeSize();
    i++;
    return 1;
  };
  const groupSize = (): number => {
    i++;
    if (pattern[i] === '?') {
      const named = at(NAMED_GROUP);
      if (named === null) {
        const flags = at(FLAGS_GROUP);
        if (flags !== null) {
          i += flags[0].length;
          if (flags[1] === ')') return 0; // flags for the rest of the group: no instruction
          return closeGroup(alternation());
        }
      } else i += named[0].length;
    }
    return closeGroup(alternation() + OPERATOR_SIZE);
  };
  const closeGroup = (size: number): number => {
    if (pattern[i] === ')') i++;
    return size;
  };
  const skipClass = (): void => {
    i++;
    if (pattern[i] === '^') i++;
    if (pattern[i] === ']') i++; // first: a literal ]
    while (i < pattern.length && pattern[i] !== ']') {
      if (pattern[i] === '\\') i += 2;
      else if (pattern.startsWith('[:', i) && pattern.indexOf(':]', i + 2) !== -1) i = pattern.indexOf(':]', i + 2) + 2;
      else i++;
    }
    i++;
  };
  const escapeSize = (): number => {
    const next = pattern[i + 1];
    if (next === 'Q') {
      const end = pattern.indexOf('\\E', i + 2);
      const literal = end === -1 ? pattern.slice(i + 2) : pattern.slice(i + 2, end);
      i = end === -1 ? pattern.length : end + 2;
      return literal.length;
    }
    const braced = at(BRACED_ESCAPE);
    if (braced !== null) i += braced[0].length;
    else if (next === 'p' || next === 'P') i += 3;
    else if (next === 'x') i += 4;
    else i += 2;
    return 1;
  };
  let size = 0;
  // an unmatched `)` ends the top level early; RE2 refuses such a pattern, but the bound stays one
  while (i < pattern.length) {
    size += alternation();
    if (pattern[i] === ')') i++;
  }
  return size + PROGRAM_OVERHEAD;
}

/**
 * ajv's `code.regExp` hook: ajv's `pattern` keyword would otherwise use JS RegExp, which
 * backtracks. ajv calls `test` only, with JSON Schema's unanchored semantics, as RE2's `test` does.
 * Each pattern is the rule set's own {@link LazyPattern}, so that ajv compiling its schema
 * compiles no pattern, and the rule set's cost sees when it was compiled.
 */
export function lazyRegExpEngine(patterns: Map<string, LazyPattern>): RegExpEngine {
  return Object.assign(
    (pattern: string) => {
      const re = patterns.get(pattern) ?? new LazyPattern(pattern);
      return { test: (s: string) => re.test(s), toString: () => `re2:${pattern}` };
    },
    // Only used by ajv's standalone code generation, which Relay does not use.
    { code: 'require("re2js").RE2JS' },
  );
}
