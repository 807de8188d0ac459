import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../../api';
import type { BulkRetry as Job, BulkRetryCreate } from '@relay/client';
import type { ActivityQuery } from './filters';

const FINISHED: Array<Job['state']> = ['done', 'cancelled', 'failed'];

/**
 * Retries every failed delivery of the Errors group in the view's endpoint and window, as a
 * background job of the API (`POST /v1/bulk-retries`); its progress is polled until it ends,
 * and it can be cancelled.
 */
export function BulkRetry(props: { params: ActivityQuery }) {
  const [job, setJob] = useState<Job | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (!job || FINISHED.includes(job.state)) return;
    const timer = setInterval(() => {
      must(relay.GET('/v1/bulk-retries/{jobId}', { params: { path: { jobId: job.id } } })).then(setJob, () => undefined);
    }, 2000);
    return () => clearInterval(timer);
  }, [job?.id, job?.state]);

  const start = async (): Promise<void> => {
    setMessage(null);
    try {
      const { endpoint_id, from, to } = props.params;
      const body: BulkRetryCreate = { status: 'errors', ...(endpoint_id && { endpoint_id }), ...(from && { from }), ...(to && { to }) };
      setJob(await must(relay.POST('/v1/bulk-retries', { body })));
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
      <button type="button" onClick={() => void start()} disabled={running}>
        Retry failed deliveries
      </button>{' '}
      {job && (
        <span role="status">
          Bulk retry {job.state}
          {job.cancel_requested && !FINISHED.includes(job.state) ? ' (cancelling)' : ''}: {job.progress.rows_scanned} row{job.progress.rows_scanned === 1 ? '' : 's'} read, {job.progress.deliveries_queued} deliver{job.progress.deliveries_queued === 1 ? 'y' : 'ies'} queued again.{' '}
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
