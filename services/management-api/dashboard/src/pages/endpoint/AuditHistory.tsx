import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../../api';
import { Loading, Notice } from '../../components/ui';
import { utc } from '../../lib/time';
import type { AuditRow } from '@relay/client';

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
};

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** What a row changed, in words: the fields by name, a secret only as "changed", the target's name. */
export function changeText(r: AuditRow): string {
  const d = r.details ?? {};
  const secrets = new Set(list(d.secrets_changed));
  const fields = list(d.fields).map((f) => (secrets.has(f) ? `${f} (secret changed)` : f));
  const target = typeof d.name === 'string' && r.action.startsWith('target_') ? `“${d.name}”` : '';
  return [target, fields.join(', ')].filter(Boolean).join(': ');
}

/** The audit history, newest first, a page at a time: every change of the endpoint and its targets. */
export function AuditHistory(props: { endpointId: string; version: number }) {
  const [rows, setRows] = useState<AuditRow[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async (before: string | null): Promise<void> => {
    try {
      const page = await must(relay.GET('/v1/endpoints/{endpointId}/audit', { params: { path: { endpointId: props.endpointId }, query: { limit: 50, ...(before && { before }) } } }));
      setRows((r) => (before && r ? [...r, ...page.data] : page.data));
      setNext(page.next_before);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => {
    void load(null);
  }, [props.endpointId, props.version]);
  return (
    <section aria-labelledby="audit-title" class="card">
      <h2 id="audit-title">Audit history</h2>
      <p class="hint">Every change of this endpoint — settings (which fields; secrets only as changed), maintenance windows, pauses, the Enabled control and its outputs — with the API key that made it and where from. A window pausing the endpoint on schedule is not a change and is not recorded.</p>
      {error && <Notice kind="error">{error}</Notice>}
      {!rows && !error && <Loading what="the audit history" />}
      {rows && rows.length === 0 && <p>Nothing recorded yet.</p>}
      {rows && rows.length > 0 && (
        <div class="table-wrap">
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Time (UTC)</th>
                <th scope="col">Action</th>
                <th scope="col">What</th>
                <th scope="col" class="wide-only">By</th>
                <th scope="col" class="wide-only">From</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{utc(r.at)}</td>
                  <td>{ACTION_LABELS[r.action] ?? r.action}</td>
                  <td class="audit-what">
                    {changeText(r)}
                    <span class="narrow-only hint">
                      by {r.actor_name && <span>{r.actor_name} </span>}
                      <code>{r.actor}</code>
                    </span>
                  </td>
                  <td class="wide-only">
                    {r.actor_name && <span>{r.actor_name} </span>}
                    <code>{r.actor}</code>
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
    </section>
  );
}
