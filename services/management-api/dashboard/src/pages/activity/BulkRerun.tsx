import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../../api';
import type { BulkRerunCreate, BulkRerunPreview } from '@relay/client';
import type { ActivityQuery } from './filters';

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/**
 * Re-runs the quarantined requests of the view's endpoint and window (docs/management-api.md
 * "Bulk re-run"). It asks first: the preview (`POST /v1/reruns/preview`) counts them, and the
 * person confirms or cancels; with none, or more than one run takes, it runs nothing.
 */
export function BulkRerun(props: { params: ActivityQuery }) {
  const [preview, setPreview] = useState<BulkRerunPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  // another endpoint or window: a count made for the one before no longer applies
  useEffect(() => setPreview(null), [props.params.endpoint_id, props.params.from, props.params.to]);

  const body = (): BulkRerunCreate => {
    const { endpoint_id, from, to } = props.params;
    return { ...(endpoint_id && { endpoint_id }), ...(from && { from }), ...(to && { to }) };
  };
  const act = async (work: () => Promise<void>): Promise<void> => {
    setMessage(null);
    setBusy(true);
    try {
      await work();
    } catch (err) {
      setMessage(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const ask = () =>
    act(async () => {
      setPreview(null);
      const p = await must(relay.POST('/v1/reruns/preview', { body: body() }));
      if (p.requests === 0) setMessage('No quarantined request in these rows: nothing to re-run.');
      else if (!p.complete)
        setMessage(
          `More than ${p.max_requests} quarantined requests here: narrow the window (From, To) or choose one endpoint. Nothing was run.`,
        );
      else setPreview(p);
    });
  const run = () =>
    act(async () => {
      setPreview(null);
      const r = await must(relay.POST('/v1/reruns', { body: body() }));
      setMessage(
        `Re-run ${plural(r.requests, 'request', 'requests')}: ${r.accepted} accepted, ${r.refused} refused again${r.replayed ? `, ${r.replayed} already re-run before` : ''}${r.payload_not_stored ? `, ${r.payload_not_stored} not stored yet` : ''}.`,
      );
    });
  return (
    <span class="bulk-retry">
      {preview === null && (
        <button type="button" class="secondary" onClick={() => void ask()} disabled={busy}>
          {busy ? 'Counting quarantined requests…' : 'Re-run quarantined requests'}
        </button>
      )}{' '}
      {preview !== null && (
        <fieldset class="bulk-confirm" aria-label="Confirm bulk re-run">
          <span role="status">{`This re-runs ${plural(preview.requests, 'quarantined request', 'quarantined requests')} under the current rules.`}</span>
          <button type="button" onClick={() => void run()}>
            Re-run
          </button>
          <button type="button" class="secondary" onClick={() => setPreview(null)}>
            Cancel
          </button>
        </fieldset>
      )}
      {message && <span role="status">{message}</span>}
    </span>
  );
}
