import type { PreviewResult, RelayApi } from './api';

/** A command line the command cannot run: exit 2. */
export class UsageError extends Error {}

/** What the command asks of the management API. */
export interface PreviewApi {
  activityRow(eventId: string): Promise<{ id: string; endpoint_id: string }>;
  previewTransformation: RelayApi['previewTransformation'];
}

export interface TransformTestOptions {
  code: string;
  eventIds: string[];
  /** the events' endpoint; read from their activity rows when not given */
  endpointId?: string | undefined;
  /** run as this target's transformation (its context) */
  targetId?: string | undefined;
}

/**
 * `relay transform test` (docs/cli.md): a draft transformation run by the management API's
 * preview on the stored requests of the given events, which delivers nothing. The endpoint is
 * `--endpoint`, else the one the events' activity rows name (one endpoint per run: the preview is
 * the endpoint's). Answers one result per event, in the order given.
 */
export async function previewOnEvents(api: PreviewApi, opts: TransformTestOptions): Promise<PreviewResult[]> {
  const endpointId = opts.endpointId ?? (await endpointOfEvents(api, opts.eventIds));
  const answer = await api.previewTransformation(endpointId, {
    code: opts.code,
    event_ids: opts.eventIds,
    ...(opts.targetId ? { target_id: opts.targetId } : {}),
  });
  return answer.data;
}

async function endpointOfEvents(api: PreviewApi, eventIds: string[]): Promise<string> {
  const rows = await Promise.all(eventIds.map((id) => api.activityRow(id)));
  const endpoints = new Set(rows.map((r) => r.endpoint_id));
  if (endpoints.size > 1)
    throw new UsageError(
      `the events are on different endpoints (${rows.map((r) => `${r.id} on ${r.endpoint_id}`).join(', ')}): test one endpoint's events at a time`,
    );
  return rows[0]!.endpoint_id;
}

/** Whether the transformation ran on this request: passed it on or dropped it, not threw or failed. */
export const ran = (r: PreviewResult): boolean => r.error === null;

const shown = (value: unknown): string => (value === undefined ? '(none)' : JSON.stringify(value));

/**
 * What is printed of one result, line by line: the event and how it ended with the time used,
 * the error with its line, the output request as indented JSON, the diff (`path: before → after`,
 * `(none)` for a side that is absent) and the console lines. The caller prints each line with its
 * control characters escaped: everything here but the labels came from a sender or the sandbox.
 */
export function resultLines(r: PreviewResult): string[] {
  const time = r.duration_ms === undefined ? '' : ` in ${r.duration_ms} ms`;
  if (r.input === undefined) return [`${r.event_id}  not run: ${r.error ?? 'no stored request'}`];
  const lines: string[] = [];
  if (r.error !== null) {
    lines.push(`${r.event_id}  failed${time}`);
    lines.push(`  error: ${r.line === null || r.line === undefined ? '' : `line ${r.line}: `}${r.error}`);
  } else if (r.dropped) {
    lines.push(`${r.event_id}  dropped (returned null)${time}`);
  } else {
    lines.push(`${r.event_id}  ran${time}`);
    lines.push('  output:');
    for (const l of JSON.stringify(r.output, null, 2).split('\n')) lines.push(`    ${l}`);
  }
  if (r.diff) {
    lines.push(`  diff (${r.diff.total} ${r.diff.total === 1 ? 'change' : 'changes'}):`);
    for (const c of r.diff.changes) lines.push(`    ${c.path}: ${shown(c.before)} → ${shown(c.after)}`);
    if (r.diff.total > r.diff.changes.length) lines.push(`    … and ${r.diff.total - r.diff.changes.length} more`);
  }
  if (r.logs && r.logs.length > 0) {
    lines.push('  logs:');
    for (const l of r.logs) lines.push(`    ${l}`);
  }
  return lines;
}
