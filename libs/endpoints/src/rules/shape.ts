import { createHash } from 'node:crypto';

/*
 * A payload's shape (docs/contracts.md "Drift"): the set of its field paths, array items
 * collapsed to `[]`, each with its JSON type(s). Bounded in paths, depth and name length, so a
 * payload with a thousand keys (a map keyed by ids) has a small shape, marked `truncated`.
 */

export const SHAPE_LIMITS = { maxPaths: 200, maxDepth: 8, maxNameLength: 64 } as const;

/** path → its types, sorted and joined by `|` (`number|string` when array items differ) */
export type Shape = Map<string, string>;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
}

/** The shape of a parsed JSON payload; the root is the path `$`. */
export function shapeOf(data: unknown): { shape: Shape; truncated: boolean } {
  const types = new Map<string, Set<string>>();
  let truncated = false;
  const visit = (value: unknown, path: string, depth: number): void => {
    let seen = types.get(path);
    if (seen === undefined) {
      if (types.size >= SHAPE_LIMITS.maxPaths) {
        truncated = true;
        return;
      }
      types.set(path, (seen = new Set()));
    }
    const type = typeOf(value);
    seen.add(type);
    if (type !== 'object' && type !== 'array') return;
    if (depth >= SHAPE_LIMITS.maxDepth) {
      truncated = true;
      return;
    }
    if (type === 'array') {
      for (const item of value as unknown[]) visit(item, `${path}[]`, depth + 1);
      return;
    }
    for (const key of Object.keys(value as object)) {
      const name = key.length > SHAPE_LIMITS.maxNameLength ? `${key.slice(0, SHAPE_LIMITS.maxNameLength)}…` : key;
      visit((value as Record<string, unknown>)[key], `${path}.${name}`, depth + 1);
    }
  };
  visit(data, '$', 0);
  const shape: Shape = new Map();
  for (const [path, set] of types) shape.set(path, [...set].sort().join('|'));
  return { shape, truncated };
}

/** The shape as stored: `[path, types]` pairs sorted by path. */
export function shapeEntries(shape: Shape): [string, string][] {
  return [...shape.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Equal shapes, equal ids: a short hash of the sorted entries. */
export function shapeId(shape: Shape): string {
  return createHash('sha1')
    .update(JSON.stringify(shapeEntries(shape)))
    .digest('base64url')
    .slice(0, 16);
}

export interface ShapeDiff {
  added: string[];
  removed: string[];
  /** `path: old → new` */
  retyped: string[];
}

/** What changed from `before` to `after`, each list sorted by path. */
export function diffShapes(before: Shape, after: Shape): ShapeDiff {
  const diff: ShapeDiff = { added: [], removed: [], retyped: [] };
  for (const [path, type] of shapeEntries(after)) {
    const old = before.get(path);
    if (old === undefined) diff.added.push(path);
    else if (old !== type) diff.retyped.push(`${path}: ${old} → ${type}`);
  }
  for (const [path] of shapeEntries(before)) if (!after.has(path)) diff.removed.push(path);
  return diff;
}
