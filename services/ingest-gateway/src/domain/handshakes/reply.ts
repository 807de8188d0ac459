import type { HandshakeReply } from '../errors';

/**
 * A challenge is echoed back, so it is bounded and plain: printable ASCII (Graph's tokens hold
 * spaces), at most 1024 characters. Anything else is not treated as a handshake (the request goes
 * on as an event).
 */
const ECHOABLE = /^[\x20-\x7e]{1,1024}$/;

export function echoable(value: unknown): value is string {
  return typeof value === 'string' && ECHOABLE.test(value);
}

/** `text/plain` with nosniff, so an echoed challenge is never rendered as markup. */
export function textReply(body: string): HandshakeReply {
  return { contentType: 'text/plain; charset=utf-8', body, headers: { 'X-Content-Type-Options': 'nosniff' } };
}

export function jsonReply(body: object): HandshakeReply {
  return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(body), headers: {} };
}

/** The JSON body as an object, or undefined (not JSON, or not an object). */
export function jsonObject(rawBody: Buffer): Record<string, unknown> | undefined {
  if (rawBody.length === 0 || rawBody.length > 64 * 1024) return undefined;
  try {
    const parsed: unknown = JSON.parse(rawBody.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
