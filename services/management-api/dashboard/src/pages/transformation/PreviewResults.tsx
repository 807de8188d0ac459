import { changeLine, outcomeLine, shownValue } from '../../lib/transform-preview';
import type { PreviewResult } from '../../lib/transform-preview';

/**
 * The draft's preview, one card per stored request (newest first): what it did, the changes by
 * path, its console lines and time, and the request before and after.
 */
export function PreviewResults(props: { results: PreviewResult[] }) {
  return (
    <section aria-labelledby="tx-preview-title">
      <h3 id="tx-preview-title">Preview on the last requests</h3>
      <ol class="tx-preview">
        {props.results.map((r) => (
          <li key={r.event_id} class="card" data-event-id={r.event_id} aria-label={`Request ${r.event_id}`}>
            <p>
              <code>{r.event_id}</code> <strong class={r.error !== null ? 'error-text' : ''}>{outcomeLine(r)}</strong>
              {r.duration_ms !== undefined && <span class="hint"> · {r.duration_ms.toFixed(1)} ms</span>}
            </p>
            {r.diff && r.diff.changes.length > 0 && (
              <ul class="tx-changes" aria-label="Changes">
                {r.diff.changes.map((c) => (
                  <li key={c.path}>
                    <code>{changeLine(c)}</code>
                  </li>
                ))}
                {r.diff.total > r.diff.changes.length && <li>and {r.diff.total - r.diff.changes.length} more</li>}
              </ul>
            )}
            {r.logs && r.logs.length > 0 && (
              <pre class="payload" aria-label="Console">
                {r.logs.join('\n')}
              </pre>
            )}
            {r.input && (
              <div class="tx-io">
                <div>
                  <h4>Input</h4>
                  <pre class="payload" aria-label="Input">
                    {shownValue(r.input)}
                  </pre>
                </div>
                <div>
                  <h4>Output</h4>
                  <pre class="payload" aria-label="Output">
                    {r.output ? shownValue(r.output) : r.dropped ? 'dropped' : 'none'}
                  </pre>
                </div>
              </div>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
