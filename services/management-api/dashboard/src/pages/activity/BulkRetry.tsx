import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../../api';
import type { BulkRetry as Job, BulkRetryCreate, BulkRetryPreview } from '@relay/client';
import type { ActivityQuery } from './filters';

const FINISHED: Array<Job['state']> = ['done', 'cancelled', 'failed'];
const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

const HELD_WHY = { flagged: 'flagged: clear its flag first', paused: 'paused: resume it first' } as const;

/** The targets a bulk retry leaves out, by name and why: nothing is queued where it cannot be sent. */
function heldText(p: BulkRetryPreview): string {
  if (p.held_targets.length === 0) return '';
  const each = p.held_targets.map(
    (t) => `${plural(t.deliveries, 'delivery', 'deliveries')} to “${t.name}” (${HELD_WHY[t.held]})`,
  );
  return ` Left out: ${each.join('; ')}.`;
}

/** What the confirmation says before anything is queued (docs/dashboard.md "Retry failed deliveries"). */
function previewText(p: BulkRetryPreview): string {
  const floor = p.complete ? '' : 'at least ';
  return `This queues ${floor}${plural(p.deliveries, 'failed delivery', 'failed deliveries')} of ${floor}${plural(p.events, 'event', 'events')} again.${heldText(p)}${p.complete ? '' : ` (Counted in the newest ${p.max_rows} rows; the job goes through them all.)`}`;
}

/**
 * Retries every failed delivery of the Errors group in the view's endpoint and window, as a
 * background job of the API (`POST /v1/bulk-retries`). It asks first: the preview
 * (`POST /v1/bulk-retries/preview`) counts what the job would queue, by the job's own rules, and
 * the person confirms or cancels; with nothing to retry it starts nothing. Then the job's
 * progress is polled until it ends, and it can be cancelled.
 */
export function BulkRetry(props: { params: ActivityQuery }) {
  const [job, setJob] = useState<Job | null>(null);
  const [preview, setPreview] = useState<BulkRetryPreview | null>(null);
  const [counting, setCounting] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (!job || FINISHED.includes(job.state)) return;
    const timer = setInterval(() => {
      must(relay.GET('/v1/bulk-retries/{jobId}', { params: { path: { jobId: job.id } } })).then(
        setJob,
        () => undefined,
      );
    }, 2000);
    return () => clearInterval(timer);
  }, [job?.id, job?.state]);
  // another endpoint or window: a count made for the one before no longer applies
  useEffect(() => setPreview(null), [props.params.endpoint_id, props.params.from, props.params.to]);

  const body = (): BulkRetryCreate => {
    const { endpoint_id, from, to } = props.params;
    return { status: 'errors', ...(endpoint_id && { endpoint_id }), ...(from && { from }), ...(to && { to }) };
  };
  const ask = async (): Promise<void> => {
    setMessage(null);
    setPreview(null);
    setCounting(true);
    try {
      const p = await must(relay.POST('/v1/bulk-retries/preview', { body: body() }));
      if (p.deliveries === 0)
        setMessage(
          `Nothing to retry: no failed delivery in these rows can be sent again (${plural(p.counts.rows_scanned, 'row', 'rows')} of Errors read). Nothing was queued.${heldText(p)}`,
        );
      else setPreview(p);
    } catch (err) {
      setMessage(messageOf(err));
    } finally {
      setCounting(false);
    }
  };
  const start = async (): Promise<void> => {
    setPreview(null);
    try {
      setJob(await must(relay.POST('/v1/bulk-retries', { body: body() })));
    } catch (err) {
      setMessage(messageOf(err));
    }
  };
  const cancel = async (): Promise<void> => {
    if (!job) return;
    try {
      setJob(await must(relay.POST('/v1/bulk-retries/{jobId}/cancel', { params: { path: { jobId: job.id } } })));
    } catch (err) {
      setMessage(messageOf(err));
    }
  };
  const running = job !== null && !FINISHED.includes(job.state);
  return (
    <span class="bulk-retry">
      {preview === null && (
        <button type="button" onClick={() => void ask()} disabled={running || counting}>
          {counting ? 'Counting failed deliveries…' : 'Retry failed deliveries'}
        </button>
      )}{' '}
      {preview !== null && (
        <fieldset class="bulk-confirm" aria-label="Confirm bulk retry">
          <span role="status">{previewText(preview)}</span>
          <button type="button" onClick={() => void start()}>
            Retry
          </button>
          <button type="button" class="secondary" onClick={() => setPreview(null)}>
            Cancel
          </button>
        </fieldset>
      )}
      {job && preview === null && (
        <span role="status">
          Bulk retry {job.state}
          {job.cancel_requested && !FINISHED.includes(job.state) ? ' (cancelling)' : ''}:{' '}
          {plural(job.progress.rows_scanned, 'row', 'rows')} read,{' '}
          {plural(job.progress.deliveries_queued, 'delivery', 'deliveries')} queued again
          {job.progress.skipped_resend_limit > 0
            ? `; ${plural(job.progress.skipped_resend_limit, 'event', 'events')} skipped at the 100-delivery ceiling`
            : ''}
          {job.progress.deliveries_held > 0
            ? `; ${plural(job.progress.deliveries_held, 'delivery', 'deliveries')} to flagged or paused targets left out`
            : ''}
          .{' '}
        </span>
      )}
      {running && (
        <button type="button" class="secondary" onClick={() => void cancel()}>
          Cancel bulk retry
        </button>
      )}
      {message && <span role="alert">{message}</span>}
    </span>
  );
}
