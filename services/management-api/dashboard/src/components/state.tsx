import type { AuditRow, Endpoint } from '@relay/client';
import { must, relay } from '../api';
import { utc } from '../lib/time';

const STATE_ACTIONS = new Set(['paused', 'resumed', 'disabled', 'enabled']);

/**
 * The endpoint's latest manual state change (who paused or disabled it), or null: the newest of
 * its last 20 audit rows that is one — settings and target changes are in the history too.
 */
export async function lastStateChange(endpointId: string): Promise<AuditRow | null> {
  const page = await must(
    relay.GET('/v1/endpoints/{endpointId}/audit', { params: { path: { endpointId }, query: { limit: 20 } } }),
  );
  return page.data.find((r) => STATE_ACTIONS.has(r.action)) ?? null;
}

/**
 * An endpoint's state as one line (spec "States and transitions"): enabled,
 * paused manually, paused by a maintenance window until …, or disabled — each with what senders
 * get and who made it so (the manual controls are audited with their actor; a window is a
 * schedule, not a person).
 */
export function stateText(ep: Endpoint, last: AuditRow | null): { label: string; detail: string } {
  const a = ep.availability;
  const by = (action: string): string =>
    last?.action === action
      ? ` by ${last.actor_name ? `${last.actor_name} (${last.actor})` : last.actor} at ${utc(last.at)}`
      : '';
  if (a.state === 'disabled')
    return { label: 'Disabled', detail: `Disabled${by('disabled')}: senders get 404 until it is enabled again.` };
  if (a.state === 'paused' && a.paused_by === 'maintenance_window') {
    return {
      label: 'Paused by a window',
      detail: `Paused by a maintenance window until ${utc(a.resumes_at ?? null)}: senders get 503 until then.`,
    };
  }
  if (a.state === 'paused')
    return { label: 'Paused manually', detail: `Paused manually${by('paused')}: senders get 503 until it is resumed.` };
  return { label: 'Enabled', detail: 'Enabled: accepting requests.' };
}

export function StateBadge(props: { endpoint: Endpoint; last?: AuditRow | null }) {
  const s = stateText(props.endpoint, props.last ?? null);
  return (
    <span class={`state state--${props.endpoint.availability.state}`} title={s.detail}>
      {s.label}
    </span>
  );
}
