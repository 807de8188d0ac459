/**
 * Spec "Forwarded request" rule 4: headers that are never forwarded. They are dropped
 * before the event is published, so credentials never reach the broker either.
 */
export const ALWAYS_REMOVED = new Set([
  'host', 'connection', 'content-length', 'content-type', 'transfer-encoding', 'upgrade',
  'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'expect', 'keep-alive',
  'http2-settings', 'authorization', 'cookie', 'set-cookie', 'x-relay-forward-chain',
  'x-relay-delivery-id', 'x-relay-event-id', 'x-relay-attempt',
]);

/**
 * The sender's headers as targets may receive them: rule 4's list and the endpoint's own
 * credential headers (rule 5, `alsoRemove`) dropped, repeated values joined with ", ".
 */
export function forwardableHeaders(headers: Readonly<Record<string, string | string[] | undefined>>, alsoRemove: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || ALWAYS_REMOVED.has(name) || alsoRemove.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
