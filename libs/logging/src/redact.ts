/**
 * Field names whose values never reach a log line, at any depth. Matching is by the
 * lower-cased key, and also by substring for the generic words (a header map may hold
 * `x-shopify-hmac-sha256` or `stripe-signature`).
 */
const EXACT = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'password',
  'api_key',
  'apikey',
  'x-api-key',
]);
const PARTS = ['secret', 'token', 'password', 'signature', 'hmac', 'credential', 'api-key', 'api_key'];

export const REDACTED = '[redacted]';

function isSensitiveKey(key: string): boolean {
  const k = key.toLowerCase();
  return EXACT.has(k) || PARTS.some((p) => k.includes(p));
}

/** Returns a copy of `value` with sensitive fields replaced; leaves non-objects alone. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSensitiveKey(k) ? REDACTED : redact(v, depth + 1);
  }
  return out;
}
