import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../../api';
import { Loading, Notice } from '../../components/ui';
import { conditionKindsOf } from '../../lib/alert-conditions';
import { changeText } from '../../lib/audit-text';
import { utc } from '../../lib/time';
import { href } from '../../router';
import type { AuditRow } from '@relay/client';

/** Every audit action in words (libs/store AUDIT_ACTIONS); an action added later shows by its code. */
const ACTION_LABELS: Record<string, string> = {
  paused: 'Paused',
  resumed: 'Resumed',
  disabled: 'Disabled',
  enabled: 'Enabled',
  endpoint_created: 'Endpoint created',
  endpoint_updated: 'Settings changed',
  endpoint_deleted: 'Endpoint deleted',
  target_created: 'Target added',
  target_updated: 'Target changed',
  target_deleted: 'Target deleted',
  target_flag_cleared: 'Target flag cleared',
  target_paused: 'Target paused',
  target_resumed: 'Target resumed',
  transformation_saved: 'Transformation saved',
  transformation_restored: 'Transformation restored',
  transformation_removed: 'Transformation removed',
  key_created: 'API key created',
  key_revoked: 'API key revoked',
  plan_changed: 'Plan changed',
  alert_rule_created: 'Alert rule created',
  alert_rule_updated: 'Alert rule changed',
  alert_rule_deleted: 'Alert rule deleted',
  alert_test_sent: 'Test alert sent',
  member_invited: 'Member invited',
  invitation_revoked: 'Invitation revoked',
  member_joined: 'Member joined',
  member_removed: 'Member removed',
  identity_provider_set: 'Identity provider set',
  identity_provider_removed: 'Identity provider removed',
};

export const actionLabel = (action: string): string => ACTION_LABELS[action] ?? action;

/** Who made a change: the key's name and prefix, or the member's name, address and id (the operator's commands have neither). */
function Who(props: { row: AuditRow }) {
  const r = props.row;
  return (
    <>
      {r.actor_name && <span>{r.actor_name} </span>}
      <code>{r.actor}</code>
    </>
  );
}

/**
 * An audit history, newest first, a page at a time. One endpoint's (its tab: `GET
 * /v1/endpoints/:id/audit`, any role) or the account's (`GET /v1/audit`, admin and owner), which
 * also names each row's endpoint and holds key and plan changes.
 */
export function AuditTable(props: {
  endpointId: string | null;
  account: boolean;
  version: number;
  names?: Map<string, string>;
}) {
  const [rows, setRows] = useState<AuditRow[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // alert rules' conditions by their names, from the API's own description (only the account's history has them)
  const [conditionLabels, setConditionLabels] = useState<Map<string, string>>(new Map());
  useEffect(() => {
    if (!props.account) return;
    must(relay.GET('/v1/openapi.json')).then(
      (doc) =>
        setConditionLabels(new Map(conditionKindsOf(doc as Record<string, unknown>).map((k) => [k.kind, k.label]))),
      () => undefined,
    );
  }, [props.account]);
  const load = async (before: string | null): Promise<void> => {
    try {
      const page = props.account
        ? await must(
            relay.GET('/v1/audit', {
              params: {
                query: {
                  limit: 50,
                  ...(before && { before }),
                  ...(props.endpointId && { endpoint_id: props.endpointId }),
                },
              },
            }),
          )
        : await must(
            relay.GET('/v1/endpoints/{endpointId}/audit', {
              params: { path: { endpointId: props.endpointId! }, query: { limit: 50, ...(before && { before }) } },
            }),
          );
      setRows((r) => (before && r ? [...r, ...page.data] : page.data));
      setNext(page.next_before);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => {
    setRows(null);
    setError(null);
    void load(null);
  }, [props.account, props.endpointId, props.version]);
  const endpointCell = (r: AuditRow) =>
    r.endpoint_id === null ? (
      <span class="hint">account</span>
    ) : props.names?.has(r.endpoint_id) ? (
      <a href={href('endpoints', r.endpoint_id)}>{props.names.get(r.endpoint_id)!}</a>
    ) : (
      <code title="a deleted endpoint">{r.endpoint_id}</code>
    );
  return (
    <>
      {error && <Notice kind="error">{error}</Notice>}
      {!rows && !error && <Loading what="the audit history" />}
      {rows && rows.length === 0 && (
        <p>Nothing recorded{props.account && props.endpointId ? ' for this endpoint' : ''} yet.</p>
      )}
      {rows && rows.length > 0 && (
        <div class="table-wrap">
          <table class="list audit-table">
            <caption class="sr-only">Changes, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time (UTC)</th>
                <th scope="col">Action</th>
                {props.account && <th scope="col">Endpoint</th>}
                <th scope="col">What</th>
                <th scope="col" class="wide-only">
                  By
                </th>
                <th scope="col" class="wide-only">
                  From
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{utc(r.at)}</td>
                  <td>{actionLabel(r.action)}</td>
                  {props.account && <td>{endpointCell(r)}</td>}
                  <td class="audit-what">
                    {changeText(r, conditionLabels)}
                    <span class="narrow-only hint">
                      by <Who row={r} />
                      {r.source_ip ? ` from ${r.source_ip}` : ''}
                    </span>
                  </td>
                  <td class="wide-only">
                    <Who row={r} />
                  </td>
                  <td class="wide-only">{r.source_ip ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next && (
        <button type="button" class="secondary" onClick={() => void load(next)}>
          Older entries
        </button>
      )}
    </>
  );
}

/** The endpoint's Audit history tab: every change of the endpoint and its targets. */
export function AuditHistory(props: { endpointId: string; version: number }) {
  return (
    <section aria-labelledby="audit-title" class="card">
      <h2 id="audit-title">Audit history</h2>
      <p class="hint">
        Every change of this endpoint — settings (which fields; secrets only as changed), maintenance windows, pauses,
        the Enabled control and its outputs — with the API key that made it and where from. A window pausing the
        endpoint on schedule is not a change and is not recorded.
      </p>
      <AuditTable endpointId={props.endpointId} account={false} version={props.version} />
    </section>
  );
}
