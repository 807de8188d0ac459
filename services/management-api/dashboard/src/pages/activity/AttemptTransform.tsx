import type { ActivityRow } from '@relay/client';

type Attempt = ActivityRow['deliveries'][number]['attempts'][number];
type TransformNote = NonNullable<Attempt['transform']>;

/**
 * What the transformations did on one attempt, as the row keeps it (docs/transformations.md
 * "Failures"): the versions that ran, in order (the endpoint's, then the target's), a failure's
 * line and message, and the console lines kept. The lines are what the user's code printed:
 * text children, never markup. Folded under its summary line, as an attempt's answer is.
 */
export function AttemptTransform(props: { attempt: Attempt; transform: TransformNote; open: boolean }) {
  const { attempt: a, transform: t } = props;
  const failure = a.state === 'transform_failed' ? failureLine(a.error) : null;
  const ran = t.versions.map((v) => `${v.scope} v${v.version}`).join(', ') || 'none';
  return (
    <details class="attempt-transform" data-attempt={a.attempt} open={props.open}>
      <summary>
        Attempt {a.attempt}: transformation{t.versions.length === 1 ? '' : 's'} {ran} · {t.logs.length} console line
        {t.logs.length === 1 ? '' : 's'}
      </summary>
      {failure && <p class="error-text">{failure}</p>}
      {t.logs.length > 0 ? (
        <pre class="payload" aria-label="Console">
          {t.logs.join('\n')}
        </pre>
      ) : (
        <p class="hint">Nothing was written to the console.</p>
      )}
    </details>
  );
}

/** `TRANSFORM_FAILED: <scope> transformation v<n>, line <l>: <message>`, as the deliverer writes it */
const FAILED = /^TRANSFORM_FAILED: (endpoint|target) transformation v(\d+)(?:, line (\d+))?: ([\s\S]*)$/;

/** A failed attempt's error as a person reads it: where it failed, then the message. */
function failureLine(error: string | null): string | null {
  if (error === null) return null;
  const m = FAILED.exec(error);
  if (!m) return `Failed: ${error.replace(/^TRANSFORM_FAILED: /, '')}`;
  const [, scope, version, line, message] = m;
  return line !== undefined
    ? `Failed at line ${line} of ${scope} v${version}: ${message}`
    : `Failed in ${scope} v${version}: ${message}`;
}
