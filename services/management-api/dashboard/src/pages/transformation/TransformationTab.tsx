import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../../api';
import { Notice } from '../../components/ui';
import type { Abilities } from '../../lib/roles';
import { go } from '../../router';
import type { Target } from '@relay/client';
import { TransformationEditor } from './TransformationEditor';

/**
 * The endpoint's transformations (docs/transformations.md): the endpoint's own, which runs
 * before fan-out, or one target's, picked here (`#/endpoints/<id>/transformation/<target id>`).
 */
export function TransformationTab(props: { endpointId: string; targetId: string | null; can: Abilities }) {
  const [targets, setTargets] = useState<Target[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const endpointId = props.endpointId;
  useEffect(() => {
    must(relay.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } })).then(
      (r) => setTargets(r.data),
      (err) => setError(messageOf(err)),
    );
  }, [endpointId]);
  const target = targets?.find((t) => t.id === props.targetId) ?? null;
  const pick = (targetId: string): void =>
    go('endpoints', endpointId, 'transformation', ...(targetId ? [targetId] : []));

  return (
    <section aria-labelledby="tx-title">
      <h2 id="tx-title">Transformation</h2>
      <p class="hint">
        JavaScript <code>{'(request, context) => request | null'}</code>, run in a sandbox before each delivery: the
        endpoint’s for every target, then the target’s own. Return the request changed, or <code>null</code> to drop it.{' '}
        <code>console.log</code> lines are kept with the attempt.
      </p>
      {targets && (
        <div class="field tx-scope">
          <label for="tx-scope">Applies to</label>
          <select id="tx-scope" value={props.targetId ?? ''} onChange={(e) => pick(e.currentTarget.value)}>
            <option value="">The endpoint (before every target)</option>
            {targets?.map((t) => (
              <option key={t.id} value={t.id}>
                Target {t.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {error && <Notice kind="error">{error}</Notice>}
      {props.targetId !== null && targets && !target && (
        <Notice kind="error">This endpoint has no target {props.targetId}.</Notice>
      )}
      {(props.targetId === null || target) && (
        <TransformationEditor
          key={props.targetId ?? endpointId}
          scope={{ endpointId, targetId: props.targetId }}
          can={props.can}
        />
      )}
    </section>
  );
}
