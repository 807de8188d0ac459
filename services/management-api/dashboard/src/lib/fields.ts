import type { FieldError } from '@relay/client';

/** The API's validation errors (`errors: [{ field, message }]`), placed at the form's fields. */
export type { FieldError };

export type ErrorMap = Map<string, string[]>;

export function errorMap(errors: FieldError[]): ErrorMap {
  const map: ErrorMap = new Map();
  for (const e of errors) map.set(e.field, [...(map.get(e.field) ?? []), e.message]);
  return map;
}

/**
 * The form field that shows an API field path: the path itself when the form has it, else the
 * nearest enclosing path it has (`inbound_auth.bearer.tokens[1]` → `inbound_auth.bearer.tokens`
 * → `inbound_auth`), else null (shown in the form's summary only).
 */
export function fieldFor(path: string, known: ReadonlySet<string>): string | null {
  let p = path;
  for (;;) {
    if (known.has(p)) return p;
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    if (cut <= 0) return null;
    p = p.slice(0, cut);
  }
}

/** A DOM id for a field path (ids may not hold `[`, `]` or `.` usefully in selectors). */
export function fieldId(path: string): string {
  return `f-${path.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** `config.custom_headers[0].name` → `custom headers 1 › name`, for a problem no control shows. */
export function pathWords(path: string): string {
  return path
    .replace(/^config\./, '')
    .replace(/\[(\d+)\]/g, (_, i: string) => `.${Number(i) + 1}`)
    .split('.')
    .map((s) => s.replace(/_/g, ' '))
    .join(' › ');
}
