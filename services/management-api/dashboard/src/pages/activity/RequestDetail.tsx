import { useEffect, useState } from 'preact/hooks';
import { RelayApiError, messageOf, must, relay } from '../../api';
import type { ActivityRequest } from '@relay/client';
import { Loading, Notice } from '../../components/ui';
import { formatBytes, prettyPayload } from '../../lib/payload-view';

/**
 * What the sender sent (`GET /v1/activity/:id/request`): method and query,
 * the headers with credentials redacted by the API, and the payload — pretty-printed JSON or
 * XML, or raw — with its size and a download of its exact bytes.
 */
export function RequestDetail(props: { eventId: string }) {
  const [kept, setKept] = useState<ActivityRequest | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [raw, setRaw] = useState(false);
  useEffect(() => {
    must(relay.GET('/v1/activity/{eventId}/request', { params: { path: { eventId: props.eventId } } })).then(
      setKept,
      (err) =>
        setMissing(
          err instanceof RelayApiError && err.status === 404
            ? 'Not kept: the payload of a request is kept only once it is accepted, for as long as its row.'
            : messageOf(err),
        ),
    );
  }, [props.eventId]);
  if (missing) return <Notice kind="info">{missing}</Notice>;
  if (!kept) return <Loading what="the request" />;
  const pretty = kept.body_text === null ? null : prettyPayload(kept.body_text, kept.content_type);
  const shown = raw || pretty === null ? kept.body_text : pretty;
  const download = `data:${kept.content_type ?? 'application/octet-stream'};base64,${kept.body_base64}`;
  return (
    <section class="request-detail" aria-label="Request">
      <h3>Request</h3>
      <p>
        <code>
          {kept.method} {kept.query ? `?${kept.query}` : '(no query)'}
        </code>
      </p>
      <div class="table-wrap">
        <table class="list headers">
          <caption>Headers</caption>
          <tbody>
            {Object.entries(kept.headers).map(([name, value]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        Payload, {formatBytes(kept.size_bytes)}
        {kept.content_type ? ` of ${kept.content_type}` : ''}.{' '}
        {pretty !== null && (
          <button type="button" class="secondary" aria-pressed={raw} onClick={() => setRaw(!raw)}>
            {raw ? 'Show pretty' : 'Show raw'}
          </button>
        )}{' '}
        <a href={download} download={`${props.eventId}.payload`}>
          Download
        </a>
      </p>
      {shown === null ? (
        <p>The payload is not text; download it to see its bytes.</p>
      ) : (
        <pre class="payload">{shown}</pre>
      )}
    </section>
  );
}
