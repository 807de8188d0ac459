import type { AuditRow, Endpoint } from '@relay/client';
import { must, relay } from '../api';
import { utc } from '../lib/time';

const STATE_ACTIONS = new Set(['paused', 'resumed', 'disabled', 'enabled']);

/**
 * The endpoint's latest manual state change (who paused or disabled it), or null: the newest of
 * its last 20 audit rows that is one — settings and target changes are in the history too.
 */
export async function lastStateChange(endpointId: string): Promise<AuditRow | null> {
  const page = await must(relay.GET('/v1/endpoints/{endpointId}/audit', { params: { path: { endpointId }, query: { limit: 20 } } }));
  return page.data.find((r) => STATE_ACTIONS.has(r.action)) ?? null;
}

/**
 * An endpoint's availability in words (spec "States and transitions"), with who made it so:
 * the manual pause and the Enabled control are audited with their actor; a maintenance window
 * is a schedule, not a person.
 */
export function stateText(ep: Endpoint, last: AuditRow | null): { label: string; detail: string } {
  const a = ep.availability;
  const by = last ? ` by ${last.actor} at ${utc(last.at)}` : '';
  if (a.state === 'disabled') return { label: 'Disabled', detail: `Enabled is off${last?.action === 'disabled' ? by : ''}; requests get 404.` };
  if (a.state === 'paused' && a.paused_by === 'maintenance_window') {
    return { label: 'Paused', detail: `Maintenance window until ${utc(a.resumes_at ?? null)}; requests get 503.` };
  }
  if (a.state === 'paused') return { label: 'Paused', detail: `Paused manually${last?.action === 'paused' ? by : ''}; requests get 503 until resumed.` };
  return { label: 'Enabled', detail: 'Accepting requests.' };
}

export function StateBadge(props: { endpoint: Endpoint; last?: AuditRow | null }) {
  const s = stateText(props.endpoint, props.last ?? null);
  return (
    <span class={`state state--${props.endpoint.availability.state}`} title={s.detail}>
      {s.label}
    </span>
  );
}
