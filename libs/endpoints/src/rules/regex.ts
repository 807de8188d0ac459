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
 * ajv's `code.regExp` hook: ajv's `pattern` keyword would otherwise use JS RegExp, which
 * backtracks. ajv calls `test` only, with JSON Schema's unanchored semantics, as RE2's `test` does.
 */
export const re2RegExpEngine: RegExpEngine = Object.assign(
  (pattern: string) => {
    const re = RE2JS.compile(pattern);
    return { test: (s: string) => re.test(s), toString: () => `re2:${pattern}` };
  },
  // Only used by ajv's standalone code generation, which Relay does not use.
  { code: 'require("re2js").RE2JS' },
);
