import { isNeverForwarded } from '@relay/contracts';

/**
 * The sender's headers as targets may receive them, repeated values joined with ", ". Dropped
 * before the event is published, so credentials never reach the broker: the never-forwarded
 * list (rule 4, Relay's namespace and the sender's hop headers — one list, in
 * @relay/contracts, that the webhook kind applies too) and the endpoint's own credential
 * headers (rule 5, `alsoRemove`).
 */
export function forwardableHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  alsoRemove: ReadonlySet<string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || isNeverForwarded(name) || alsoRemove.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
