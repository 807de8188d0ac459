import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from '../../api';

interface Job {
  id: string;
  state: 'queued' | 'running' | 'done' | 'cancelled' | 'failed' | string;
  cancel_requested: boolean;
  progress: { rows_scanned: number; rows_retried: number; deliveries_queued: number };
  filter: { from: string; to: string };
}

const FINISHED = ['done', 'cancelled', 'failed'];

/**
 * Retries every failed delivery of the Errors group in the view's endpoint and window, as a
 * background job of the API (`POST /v1/bulk-retries`); its progress is polled until it ends,
 * and it can be cancelled.
 */
export function BulkRetry(props: { params: Record<string, string | undefined> }) {
  const [job, setJob] = useState<Job | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (!job || FINISHED.includes(job.state)) return;
    const timer = setInterval(() => {
      api<Job>(`/v1/bulk-retries/${job.id}`).then(setJob, () => undefined);
    }, 2000);
    return () => clearInterval(timer);
  }, [job?.id, job?.state]);

  const start = async (): Promise<void> => {
    setMessage(null);
    try {
      const { endpoint_id, from, to } = props.params;
      const body = Object.fromEntries(Object.entries({ endpoint_id, from, to, status: 'errors' }).filter(([, v]) => v !== undefined));
      setJob(await api<Job>('/v1/bulk-retries', { method: 'POST', body }));
    } catch (err) {
      setMessage(messageOf(err));
    }
  };
  const cancel = async (): Promise<void> => {
    if (!job) return;
    try {
      setJob(await api<Job>(`/v1/bulk-retries/${job.id}/cancel`, { method: 'POST' }));
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
