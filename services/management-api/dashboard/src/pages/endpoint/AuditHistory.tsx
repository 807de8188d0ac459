import { useEffect, useState } from 'preact/hooks';
import { api, query, messageOf } from '../../api';
import { Loading, Notice } from '../../components/ui';
import { utc } from '../../lib/time';
import type { AuditRow } from '../../types';

const ACTION_LABELS: Record<string, string> = { paused: 'Paused', resumed: 'Resumed', disabled: 'Disabled', enabled: 'Enabled' };

/** The audit history, newest first, a page at a time (spec: manual disable, pause, resume). */
export function AuditHistory(props: { endpointId: string; version: number }) {
  const [rows, setRows] = useState<AuditRow[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async (before: string | null): Promise<void> => {
    try {
      const page = await api<{ data: AuditRow[]; next_before: string | null }>(`/v1/endpoints/${props.endpointId}/audit${query({ limit: 50, before })}`);
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
      <p class="hint">Manual pauses, resumes and the Enabled control, with the API key that made them. Maintenance windows are schedules and are not recorded.</p>
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
                <th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{utc(r.at)}</td>
                  <td>{ACTION_LABELS[r.action] ?? r.action}</td>
                  <td>
                    <code>{r.actor}</code>
                  </td>
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
