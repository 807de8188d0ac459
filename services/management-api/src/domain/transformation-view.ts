import type { FieldError, Validation } from '@relay/contracts';
import type { TransformationHead, TransformationVersionRecord } from '@relay/store';
import { MAX_CODE_CHARS } from '@relay/transform';

/** most stored requests one preview runs on */
export const MAX_PREVIEW_EVENTS = 20;

/** A saved version as the API shows it; `code` only where one version is asked for. */
export function versionView(v: TransformationVersionRecord, withCode: boolean): Record<string, unknown> {
  return {
    version: v.version,
    saved_by: v.saved_by,
    saved_by_name: v.saved_by_name,
    saved_at: v.saved_at.toISOString(),
    restored_from: v.restored_from,
    ...(withCode ? { code: v.code } : {}),
  };
}

/** A scope's transformation: what runs now and the versions kept, newest first. */
export function transformationView(
  scope: 'endpoint' | 'target',
  scopeId: string,
  head: TransformationHead | null,
  versions: TransformationVersionRecord[],
): Record<string, unknown> {
  return {
    scope,
    scope_id: scopeId,
    active_version: head?.active?.version ?? null,
    code: head?.active?.code ?? null,
    latest_version: head?.latest ?? 0,
    versions: versions.map((v) => versionView(v, false)),
  };
}

/** `{ code }` of a save: a non-empty string up to MAX_CODE_CHARS. */
export function validateCode(body: unknown): Validation<string> {
  const code = (body as { code?: unknown } | undefined)?.code;
  const errors: FieldError[] = [];
  if (typeof code !== 'string' || code.trim() === '')
    errors.push({ field: 'code', message: 'must be the source of a function (request, context) => request | null' });
  else if (code.length > MAX_CODE_CHARS)
    errors.push({ field: 'code', message: `must be at most ${MAX_CODE_CHARS} characters` });
  return errors.length ? { ok: false, errors } : { ok: true, value: code as string };
}

export interface Change {
  path: string;
  before?: unknown;
  after?: unknown;
}

/** most changes a diff lists; a larger one ends with its count */
export const MAX_DIFF_CHANGES = 200;

/**
 * What changed between two JSON values, by path (`body.items[2].sku`): added (after only),
 * removed (before only), changed (both). Objects are walked; arrays and scalars compared whole
 * past the first differing index.
 */
export function diffOf(before: unknown, after: unknown): { changes: Change[]; total: number } {
  const changes: Change[] = [];
  let total = 0;
  const add = (c: Change): void => {
    total += 1;
    if (changes.length < MAX_DIFF_CHANGES) changes.push(c);
  };
  const walk = (a: unknown, b: unknown, path: string, depth: number): void => {
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    const objects = isObject(a) && isObject(b);
    const arrays = Array.isArray(a) && Array.isArray(b);
    if (depth > 32 || (!objects && !arrays)) return add({ path, before: a, after: b });
    if (arrays) {
      const n = Math.max(a.length, b.length);
      for (let i = 0; i < n; i += 1) {
        const at = `${path}[${i}]`;
        if (i >= a.length) add({ path: at, after: b[i] });
        else if (i >= b.length) add({ path: at, before: a[i] });
        else walk(a[i], b[i], at, depth + 1);
      }
      return;
    }
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      const at = path ? `${path}.${k}` : k;
      if (!(k in y)) add({ path: at, before: x[k] });
      else if (!(k in x)) add({ path: at, after: y[k] });
      else walk(x[k], y[k], at, depth + 1);
    }
  };
  walk(before, after, '', 0);
  return { changes, total };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
