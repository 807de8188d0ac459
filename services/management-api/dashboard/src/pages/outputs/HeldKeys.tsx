import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../../api';
import { utc } from '../../lib/time';
import type { Target } from '@relay/client';

type Held = Awaited<ReturnType<typeof loadHeld>>['data'];

const loadHeld = (endpointId: string, targetId: string) =>
  must(
    relay.GET('/v1/endpoints/{endpointId}/targets/{targetId}/held-keys', {
      params: { path: { endpointId, targetId } },
    }),
  );

/**
 * An ordered target's held keys (docs/ordering.md "Held keys"): each key whose head delivery
 * waits now — for its next attempt, or the target gate — with the later events of that key
 * waiting behind it; stuck ones first in the reader's eye. Read when shown and on Refresh.
 */
export function HeldKeys(props: { endpointId: string; target: Target }) {
  const [held, setHeld] = useState<Held | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = (): void => {
    setError(null);
    loadHeld(props.endpointId, props.target.id).then(
      (r) => setHeld(r.data),
      (err) => setError(messageOf(err)),
    );
  };
  useEffect(load, [props.endpointId, props.target.id]);
  const stuck = held?.filter((h) => h.stuck).length ?? 0;
  return (
    <section class="held-keys" aria-label={`Held keys of ${props.target.name}`}>
      <div class="title-row">
        <h4>Held keys</h4>
        {stuck > 0 && <span class="state state--disabled">{stuck} stuck</span>}
        <button type="button" class="secondary" onClick={load}>
          Refresh
        </button>
      </div>
      {error && (
        <p class="hint" role="alert">
          {error}
        </p>
      )}
      {held && held.length === 0 && <p class="hint">None: every key’s events are going out.</p>}
      {held && held.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Waiting since</th>
              <th scope="col">Event at its head</th>
              <th scope="col">Next attempt</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {held.map((h) => (
              <tr key={h.key} class={h.stuck ? 'row--stuck' : undefined}>
                <td>
                  <code class="break">{h.key}</code> {h.stuck && <span class="badge badge--warn">stuck</span>}
                </td>
                <td>{utc(h.since)}</td>
                <td>
                  <code>{h.event_id}</code>
                </td>
                <td>{h.attempt}</td>
                <td>{h.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
