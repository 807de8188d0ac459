import type { ActivityRow } from '@relay/client';
import { formatMs } from '../../lib/latency';
import { prettyPayload } from '../../lib/payload-view';

/** What the target answered to one attempt, as the row keeps it (GET /v1/activity/:id). */
type KeptResponse = NonNullable<ActivityRow['deliveries'][number]['attempts'][number]['response']>;

/**
 * One attempt's answer: the status and how long it took, the headers (a
 * credential's as `[redacted]`, capped by the API), and the kept start of the body — pretty when
 * it is JSON or XML that parses whole. Folded under its summary line so a row with many attempts
 * stays short; the API keeps none for an attempt that got no HTTP answer.
 */
export function AttemptResponse(props: {
  attempt: number;
  status: number | null;
  durationMs: number;
  response: KeptResponse;
}) {
  const r = props.response;
  const names = Object.keys(r.headers);
  const type = r.headers['content-type'] ?? null;
  const pretty = r.body_truncated ? null : prettyPayload(r.body, type);
  return (
    <details class="attempt-response" data-attempt={props.attempt}>
      <summary>
        Attempt {props.attempt}: answered {props.status !== null ? `HTTP ${props.status}` : 'without a status'} in{' '}
        {formatMs(props.durationMs)} · {names.length + r.headers_omitted} header
        {names.length + r.headers_omitted === 1 ? '' : 's'} ·{' '}
        {r.body === '' ? 'no body' : `${r.body.length}${r.body_truncated ? '+' : ''} characters of body`}
      </summary>
      {names.length > 0 && (
        <div class="table-wrap">
          <table class="list headers">
            <caption>
              Response headers
              {r.headers_omitted > 0 ? ` (the first ${names.length}; ${r.headers_omitted} more not kept)` : ''}
            </caption>
            <tbody>
              {names.map((name) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td>{r.headers[name]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {r.body !== '' && (
        <>
          <p class="hint">
            {r.body_truncated
              ? `The start of the body: its first ${r.body.length} characters are kept.`
              : 'The body, whole.'}
          </p>
          <pre class="payload">{pretty ?? r.body}</pre>
        </>
      )}
    </details>
  );
}
