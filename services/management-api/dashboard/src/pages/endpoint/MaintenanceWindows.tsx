import { useEffect, useState } from 'preact/hooks';
import { must, relay } from '../../api';
import { Field, Notice } from '../../components/ui';
import { ErrorScope, ErrorSummary, GroupError, useFormErrors } from '../../components/form-errors';
import type { Abilities } from '../../lib/roles';
import { UTC_INPUT, fromLocalInput, toLocalInput } from '../../lib/time';
import type { Endpoint } from '@relay/client';

interface WindowDraft {
  starts: string;
  ends: string;
}

/**
 * Scheduled pauses (spec "paused: … a scheduled maintenance-window pause"). Entered in UTC.
 * Saved as the whole list; each save is in the audit history (the field, not the times).
 */
export function MaintenanceWindows(props: { endpoint: Endpoint; can: Abilities; onSaved: (ep: Endpoint) => void }) {
  const fromEndpoint = (): WindowDraft[] =>
    props.endpoint.maintenance_windows.map((w) => ({
      starts: toLocalInput(w.starts_at),
      ends: toLocalInput(w.ends_at),
    }));
  const [rows, setRows] = useState<WindowDraft[]>(fromEndpoint);
  const form = useFormErrors();
  const [saved, setSaved] = useState(false);
  useEffect(() => setRows(fromEndpoint()), [props.endpoint.revision]);

  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    setSaved(false);
    try {
      const body = {
        maintenance_windows: rows.map((w) => ({
          starts_at: fromLocalInput(w.starts) ?? w.starts,
          ends_at: fromLocalInput(w.ends) ?? w.ends,
        })),
      };
      props.onSaved(
        await must(
          relay.PATCH('/v1/endpoints/{endpointId}', { params: { path: { endpointId: props.endpoint.id } }, body }),
        ),
      );
      form.clear();
      setSaved(true);
    } catch (err) {
      form.fail(err);
    }
  };
  const set = (i: number, patch: Partial<WindowDraft>): void => (
    setRows(rows.map((w, j) => (j === i ? { ...w, ...patch } : w))),
    setSaved(false)
  );
  return (
    <ErrorScope form={form}>
      <form class="card" onSubmit={(e) => void save(e)} aria-labelledby="mw-title">
        <h2 id="mw-title">Maintenance windows</h2>
        <p class="hint">
          During a window the endpoint is paused: senders get 503 and no activity row is written. Times are UTC.
        </p>
        <ErrorSummary />
        <GroupError path="maintenance_windows" label="Maintenance windows" />
        {rows.length === 0 && <p>No maintenance windows.</p>}
        {rows.map((w, i) => (
          <fieldset key={i} class="row-group">
            <legend>Window {i + 1}</legend>
            <Field path={`maintenance_windows[${i}].starts_at`} label={`Window ${i + 1} starts (UTC)`}>
              {(a) => (
                <input
                  {...a}
                  {...UTC_INPUT}
                  value={w.starts}
                  disabled={!props.can.may('updateEndpoint')}
                  onInput={(e) => set(i, { starts: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field path={`maintenance_windows[${i}].ends_at`} label={`Window ${i + 1} ends (UTC)`}>
              {(a) => (
                <input
                  {...a}
                  {...UTC_INPUT}
                  value={w.ends}
                  disabled={!props.can.may('updateEndpoint')}
                  onInput={(e) => set(i, { ends: e.currentTarget.value })}
                />
              )}
            </Field>
            {props.can.may('updateEndpoint') && (
              <button
                type="button"
                class="secondary"
                onClick={() => setRows(rows.filter((_, j) => j !== i))}
                aria-label={`Remove window ${i + 1}`}
              >
                Remove
              </button>
            )}
          </fieldset>
        ))}
        {props.can.may('updateEndpoint') && (
          <div class="actions">
            <button type="button" class="secondary" onClick={() => setRows([...rows, { starts: '', ends: '' }])}>
              Add window
            </button>
            <button type="submit">Save windows</button>
            {saved && <Notice kind="ok">Maintenance windows saved.</Notice>}
          </div>
        )}
      </form>
    </ErrorScope>
  );
}
