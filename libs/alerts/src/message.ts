import { displayText } from '@relay/contracts';
import type { AccountEvent } from '@relay/contracts';
import { CONDITIONS } from './describe';

/**
 * The dashboard view that explains an alert (docs/alerts.md "Links"): the activity log filtered
 * to the endpoint's errors over the window for a rejection spike, the target's endpoint outputs
 * for anything about a target, usage for the quota. Hash routes of the dashboard
 * (dashboard/src/router.ts, pages/activity/filters.ts).
 */
export function dashboardLink(dashboardUrl: string, event: AccountEvent, targetEndpointId: string | null): string {
  const base = dashboardUrl.replace(/\/+$/, '');
  if (event.kind === 'quota_nearly_used') return `${base}/#/usage`;
  if (event.kind === 'rejection_spike' && event.endpoint_id) {
    const windowMin = typeof event.detail.window_minutes === 'number' ? event.detail.window_minutes : 5;
    const to = new Date(event.at);
    const from = new Date(to.getTime() - windowMin * 60_000);
    // the activity filters' own time format: YYYY-MM-DDTHH:MM in UTC; `to` is the next minute so the current one is in
    const fmt = (d: Date): string => d.toISOString().slice(0, 16);
    const q = new URLSearchParams({
      endpoint_id: event.endpoint_id,
      from: fmt(from),
      to: fmt(new Date(to.getTime() + 60_000)),
      status: 'errors',
    });
    return `${base}/#/activity?${q.toString()}`;
  }
  const endpointId = targetEndpointId ?? event.endpoint_id;
  if (endpointId) return `${base}/#/endpoints/${encodeURIComponent(endpointId)}/outputs`;
  return `${base}/#/activity`;
}

const pct = (v: unknown): string => (typeof v === 'number' ? `${Math.round(v * 10) / 10}%` : '?');

/**
 * One line a person reads in a chat message, a mail subject or a spreadsheet cell. Names are
 * shown escaped (displayText): one stored before invisible characters were refused must not
 * display as another.
 */
export function summaryOf(event: AccountEvent, names: { target?: string | null; endpoint?: string | null }): string {
  const target = names.target ? `“${displayText(names.target)}” (${event.target_id})` : (event.target_id ?? 'a target');
  const endpoint = names.endpoint
    ? `“${displayText(names.endpoint)}” (${event.endpoint_id})`
    : (event.endpoint_id ?? 'an endpoint');
  const d = event.detail;
  switch (event.kind) {
    case 'target_flagged':
      return `Target ${target} was flagged: ${String(d.reason ?? 'no reason given')}. Relay sends it nothing until the flag is cleared.`;
    case 'breaker_opened':
      return `The circuit breaker of target ${target} opened${d.reason ? `: ${String(d.reason)}` : ''}. Its deliveries are held.`;
    case 'breaker_closed':
      return `The circuit breaker of target ${target} closed: deliveries flow again.`;
    case 'ordering_key_stuck':
      return `Target ${target}: ordering key “${displayText(String(d.key ?? ''))}” has waited ${String(d.held_s)} s for event ${String(d.event_id)} (${String(d.reason)}); its later events wait behind it.`;
    case 'payload_drift':
      return `Endpoint ${endpoint}: event type “${displayText(String(d.event_type ?? ''))}” arrived with a new payload shape (event ${String(d.event_id)}) — added: ${String(d.added || 'none')}; removed: ${String(d.removed || 'none')}; retyped: ${String(d.retyped || 'none')}.`;
    case 'failure_rate':
      return `Target ${target}: ${pct(d.failure_percent)} of ${String(d.attempts)} delivery attempts failed in the last ${String(d.window_minutes)} min (threshold ${String(d.threshold_percent)}%).`;
    case 'rejection_spike':
      return `Endpoint ${endpoint}: ${pct(d.rejected_percent)} of ${String(d.requests)} requests were rejected (${String(d.outcome)}) in the last ${String(d.window_minutes)} min (threshold ${String(d.threshold_percent)}%).${d.outcome === 'AUTH_FAILED' ? ' The provider may have rotated its secret.' : ''}`;
    case 'quota_nearly_used':
      return `The account used ${pct(d.used_percent)} of its monthly quota (${String(d.used)} of ${String(d.limit)} events; threshold ${String(d.threshold_percent)}%).`;
  }
}

interface AlertBody {
  /** embed-style chat (Discord) sends `content`; block-style (Slack) `text`: one payload reads well in both */
  content: string;
  text: string;
  alert: {
    id: string;
    rule_id: string;
    rule_name: string;
    kind: AccountEvent['kind'];
    title: string;
    test: boolean;
    account_id: string;
    endpoint_id: string | null;
    target_id: string | null;
    at: string;
    detail: AccountEvent['detail'];
    link: string;
  };
}

export function alertBody(args: {
  id: string;
  ruleId: string;
  ruleName: string;
  event: AccountEvent;
  summary: string;
  link: string;
  test: boolean;
}): AlertBody {
  const { event } = args;
  const title = CONDITIONS[event.kind].label;
  const line = `${args.test ? '[Relay test alert] ' : '[Relay alert] '}${displayText(args.ruleName)}: ${args.summary} ${args.link}`;
  return {
    content: line.slice(0, 1900),
    text: line.slice(0, 3000),
    alert: {
      id: args.id,
      rule_id: args.ruleId,
      rule_name: args.ruleName,
      kind: event.kind,
      title,
      test: args.test,
      account_id: event.account_id,
      endpoint_id: event.endpoint_id ?? null,
      target_id: event.target_id ?? null,
      at: event.at,
      detail: event.detail,
      link: args.link,
    },
  };
}
