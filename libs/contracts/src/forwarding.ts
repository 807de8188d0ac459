/*
 * Which incoming headers may travel from a sender to a webhook target. One list in one place:
 * the gateway drops these before it publishes a delivery (so credentials never reach the
 * broker), and the webhook kind checks again when it builds the request (a message published
 * before a name was added). Both call `isNeverForwarded`.
 */

/**
 * Spec "Forwarded request (outbound)" rule 4: always removed from forwarding. Listed exactly
 * as the spec does, so the table-driven tests read like it.
 */
export const ALWAYS_REMOVED: readonly string[] = [
  'Host',
  'Connection',
  'Content-Length',
  'Content-Type',
  'Transfer-Encoding',
  'Upgrade',
  'Proxy-Authorization',
  'Proxy-Connection',
  'TE',
  'Trailer',
  'Expect',
  'Keep-Alive',
  'HTTP2-Settings',
  'Authorization',
  'Cookie',
  'Set-Cookie',
  'X-Relay-Forward-Chain',
  'X-Relay-Delivery-Id',
  'X-Relay-Event-Id',
  'X-Relay-Attempt',
];

/**
 * Also never forwarded — Relay's rule beyond the spec's list. They describe
 * the sender's hop to Relay, not Relay's request to the target, so a target trusting them would
 * trust whatever the sender typed: the proxy-hop headers (a forged `X-Forwarded-For` would pose
 * as the client address), and `Content-Encoding` (the delivered body is Relay's, with Relay's
 * Content-Type; a sender's encoding label does not describe it).
 */
export const NEVER_FORWARDED_HOP_HEADERS: readonly string[] = [
  'Forwarded',
  'Via',
  'X-Real-IP',
  'X-Forwarded-*',
  'Content-Encoding',
];

/** Name prefixes never forwarded: Relay's own namespace (tracking headers now, anything Relay adds later) and the X-Forwarded-* family. */
const NEVER_FORWARDED_PREFIXES = ['x-relay-', 'x-forwarded-'];

const NEVER_FORWARDED = new Set([...ALWAYS_REMOVED, ...NEVER_FORWARDED_HOP_HEADERS].map((h) => h.toLowerCase()));

/** True when an incoming header (lower-cased name) must never reach a target. */
export function isNeverForwarded(lowerName: string): boolean {
  return NEVER_FORWARDED.has(lowerName) || NEVER_FORWARDED_PREFIXES.some((p) => lowerName.startsWith(p));
}
