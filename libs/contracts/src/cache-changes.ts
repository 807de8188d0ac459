/**
 * What the management API (and a deliverer that flags a target) announces to every cache of
 * stored settings: which resource changed, once per change. Caches keep entries until told, so
 * the announcements are numbered: a gap in the numbers, or a counter ahead of the last number
 * heard, means one was missed and the cache revalidates what it holds (docs/architecture.md
 * "Caches of settings"). Renaming the channel or the key is a migration, like renaming a queue.
 */

/** endpoint: its settings; target: one target (and so its endpoint's target list); account: its plan. */
export type CacheChange =
  | { scope: 'endpoint'; id: string }
  | { scope: 'target'; id: string; endpoint_id: string }
  | { scope: 'account'; id: string };

/** A change as heard: with its number in the namespace's sequence. */
export type NumberedCacheChange = CacheChange & { seq: number };

/** `${namespace}:cache-changes` — pub/sub channel of numbered changes. */
export function cacheChangesChannel(namespace: string): string {
  return `${namespace}:cache-changes`;
}

/** `${namespace}:cache-changes:seq` — the number of the last change announced. */
export function cacheChangesSeqKey(namespace: string): string {
  return `${namespace}:cache-changes:seq`;
}

/** `<scope> <id>[ <endpoint_id>]`: the announcement without its number (the publisher prefixes it). */
export function encodeCacheChange(change: CacheChange): string {
  return change.scope === 'target' ? `target ${change.id} ${change.endpoint_id}` : `${change.scope} ${change.id}`;
}

/** `<seq> <scope> <id>[ <endpoint_id>]`; null for anything else (a newer publisher's scope is ignored, not fatal). */
export function decodeCacheChange(text: string): NumberedCacheChange | null {
  const [seqText, scope, id, endpointId] = text.split(' ');
  const seq = Number(seqText);
  if (!Number.isSafeInteger(seq) || seq < 1 || !id) return null;
  if (scope === 'target') return endpointId ? { seq, scope, id, endpoint_id: endpointId } : null;
  if (scope === 'endpoint' || scope === 'account') return { seq, scope, id };
  return null;
}
