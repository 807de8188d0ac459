/**
 * Keeps one compiled value per endpoint, rebuilt when the endpoint's revision changes (its
 * `updated_at`, for instance). Bounded: the least recently used endpoint is dropped first.
 */
export class RevisionCache<T> {
  private readonly entries = new Map<string, { revision: string; value: T }>();

  constructor(private readonly maxEntries = 10_000) {}

  get(endpointId: string, revision: string | number, build: () => T): T {
    const key = String(revision);
    const hit = this.entries.get(endpointId);
    this.entries.delete(endpointId);
    const entry = hit !== undefined && hit.revision === key ? hit : { revision: key, value: build() };
    this.entries.set(endpointId, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return entry.value;
  }

  get size(): number {
    return this.entries.size;
  }
}
