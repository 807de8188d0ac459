import type { AnyTargetKind } from './kind';

export interface TargetRegistry {
  get(kind: string): AnyTargetKind | undefined;
  kinds(): string[];
}

export function createRegistry(kinds: readonly AnyTargetKind[]): TargetRegistry {
  const byName = new Map(kinds.map((k) => [k.kind, k]));
  if (byName.size !== kinds.length) throw new Error('duplicate target kind');
  return {
    get: (kind) => byName.get(kind),
    kinds: () => [...byName.keys()],
  };
}
