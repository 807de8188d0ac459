import type { Schemas } from '@relay/client';

export type PreviewResult = Schemas['TransformationPreview']['data'][number];
export type PreviewChange = NonNullable<PreviewResult['diff']>['changes'][number];

/** A value of a request as the preview shows it: JSON, a string as it is. */
export function shownValue(v: unknown): string {
  if (v === undefined) return '—';
  return typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v, null, 2);
}

/** One change of a diff in a line: `body.total: 1250 → 12.5`, `+ headers.x-id: "a"`, `− body.noise: "x"`. */
export function changeLine(c: PreviewChange): string {
  const one = (v: unknown): string => JSON.stringify(v) ?? 'undefined';
  if (!('before' in c)) return `+ ${c.path}: ${one(c.after)}`;
  if (!('after' in c)) return `− ${c.path}: ${one(c.before)}`;
  return `${c.path}: ${one(c.before)} → ${one(c.after)}`;
}

/** What the draft did to one request, in a line. */
export function outcomeLine(r: PreviewResult): string {
  if (r.error !== null) return r.line != null ? `Failed at line ${r.line}: ${r.error}` : `Failed: ${r.error}`;
  if (r.dropped) return 'Dropped: nothing would be sent for this request.';
  const total = r.diff?.total ?? 0;
  return total === 0 ? 'Unchanged.' : `${total} change${total === 1 ? '' : 's'}.`;
}
