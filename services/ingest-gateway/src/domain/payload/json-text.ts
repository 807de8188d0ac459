const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Deepest nesting of arrays and objects accepted in a JSON payload (body or Base64 JSON); the
 * root array or object is depth 1. The spec states no limit. 64 (System.Text.Json's default)
 * is far beyond real webhook payloads and far below any recursion limit of the code that later
 * walks or serialises a payload (templates, JSON.stringify): a payload the gateway accepts can
 * be handled everywhere downstream.
 */
export const MAX_JSON_DEPTH = 64;

export type JsonParse = { ok: true; value: unknown } | { ok: false; problem: 'malformed' | 'too_deep' };

/**
 * JSON text is UTF-8 (RFC 8259 §8.1): invalid UTF-8 is malformed, a leading byte order mark
 * is ignored (§8.1 allows it). A document nested deeper than MAX_JSON_DEPTH is refused.
 */
export function parseJsonBytes(bytes: Uint8Array): JsonParse {
  let text: string;
  let value: unknown;
  try {
    text = utf8.decode(bytes);
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'malformed' };
  }
  return nestingExceeds(text, MAX_JSON_DEPTH) ? { ok: false, problem: 'too_deep' } : { ok: true, value };
}

/**
 * Whether valid JSON `text` nests arrays and objects deeper than `max`: one linear pass over
 * the characters outside strings, no recursion, so 100,000 levels cost no stack.
 */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}
