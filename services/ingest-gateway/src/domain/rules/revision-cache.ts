import { LRUCache } from '@relay/cache';

/**
 * Keeps one compiled value per endpoint, rebuilt when the endpoint's revision changes (its
 * `updated_at`, for instance). Bounded: the least recently used endpoint is dropped first
 * (lru-cache, the one LRU every cache in the project uses).
 */
export class RevisionCache<T> {
  private readonly entries: LRUCache<string, { revision: string; value: T }>;

  constructor(maxEntries = 10_000) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  get(endpointId: string, revision: string | number, build: () => T): T {
    const key = String(revision);
    const hit = this.entries.get(endpointId);
    if (hit !== undefined && hit.revision === key) return hit.value;
    const entry = { revision: key, value: build() };
    this.entries.set(endpointId, entry);
    return entry.value;
  }

  get size(): number {
    return this.entries.size;
  }
}
