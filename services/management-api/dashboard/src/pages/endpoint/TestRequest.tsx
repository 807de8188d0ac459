import { useState } from 'preact/hooks';
import { messageOf, must, relay } from '../../api';
import type { Abilities } from '../../lib/roles';
import { href } from '../../router';
import type { Endpoint } from '@relay/client';

/**
 * "Send test request": `POST /v1/endpoints/:id/test` runs a request through the real pipeline;
 * its row is in the activity log's Test group.
 */
export function TestRequest(props: { endpoint: Endpoint; can: Abilities }) {
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async (): Promise<void> => {
    setBusy(true);
    try {
      // no body: the API sends a sample payload of the endpoint's format
      const res = await must(
        relay.POST('/v1/endpoints/{endpointId}/test', {
          params: { path: { endpointId: props.endpoint.id } },
          body: {},
        }),
      );
      setResult({
        ok: true,
        text: `Test request accepted as ${res.event_id}, delivered to ${res.target_count} target${res.target_count === 1 ? '' : 's'}. Its row is in the Test group.`,
      });
    } catch (err) {
      // 422: the pipeline refused it as it would a sender's request (auth, rules, …), with the reason
      setResult({ ok: false, text: messageOf(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="test-request">
      <button
        type="button"
        class="secondary"
        disabled={!props.can.may('testEndpoint') || busy}
        onClick={() => void send()}
      >
        {busy ? 'Sending…' : 'Send test request'}
      </button>
      {result && (
        <span role="status" class={`controls-note ${result.ok ? 'ok-text' : 'error-text'}`}>
          {result.text}{' '}
          {result.ok && <a href={`${href('endpoints', props.endpoint.id, 'activity')}?status=test`}>Show Test rows</a>}
        </span>
      )}
    </span>
  );
}
