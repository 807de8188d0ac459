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
  const shape: Shape = new Map();
  let truncated = false;
  const visit = (value: unknown, path: string, depth: number): void => {
    const type = typeOf(value);
    const seen = shape.get(path);
    if (seen === undefined) {
      if (shape.size >= SHAPE_LIMITS.maxPaths) {
        truncated = true;
        return;
      }
      shape.set(path, type);
    } else if (seen !== type && !seen.split('|').includes(type)) {
      // array items of several types: rare, so the plain string is kept for the common case
      shape.set(path, [...seen.split('|'), type].sort().join('|'));
    }
    if (type !== 'object' && type !== 'array') return;
    if (depth >= SHAPE_LIMITS.maxDepth) {
      truncated = true;
      return;
    }
    if (type === 'array') {
      const items = `${path}[]`;
      for (const item of value as unknown[]) visit(item, items, depth + 1);
      return;
    }
    for (const key in value as object) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      const name = key.length > SHAPE_LIMITS.maxNameLength ? `${key.slice(0, SHAPE_LIMITS.maxNameLength)}…` : key;
      visit((value as Record<string, unknown>)[key], `${path}.${name}`, depth + 1);
    }
  };
  visit(data, '$', 0);
  return { shape, truncated };
}

/** The shape as stored: `[path, types]` pairs sorted by path. */
export function shapeEntries(shape: Shape): [string, string][] {
  return [...shape.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The shape as stored (its sorted entries as JSON) and its id: equal shapes, equal ids. */
export function shapeRecord(shape: Shape): { id: string; text: string } {
  const text = JSON.stringify(shapeEntries(shape));
  return { id: createHash('sha1').update(text).digest('base64url').slice(0, 16), text };
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
