import { useState } from 'preact/hooks';
import { messageOf } from '../../api';
import { Notice } from '../../components/ui';
import type { DiffLine } from '../../lib/line-diff';
import { utc } from '../../lib/time';
import type { Transformation, TransformationVersion } from '@relay/client';
import type { ScopeApi } from './scope-api';

/**
 * The versions kept, newest first: who saved each and when, which one it restored; restore any
 * (saved again as the newest), and the code of two versions compared line by line.
 */
export function Versions(props: {
  api: ScopeApi;
  view: Transformation;
  onRestored: (v: TransformationVersion) => void;
}) {
  const { api, view } = props;
  const [error, setError] = useState<string | null>(null);
  const numbers = view.versions.map((v) => v.version);
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);
  const [diff, setDiff] = useState<{ from: number; to: number; lines: DiffLine[] } | null>(null);
  if (view.versions.length === 0) return null;
  // by default the newest against the one before it
  const a = from ?? numbers[1] ?? numbers[0]!;
  const b = to ?? numbers[0]!;

  const restore = async (n: number): Promise<void> => {
    setError(null);
    try {
      props.onRestored(await api.restore(n));
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const compare = async (): Promise<void> => {
    setError(null);
    try {
      // the diff library's chunk is fetched with the first comparison
      const [before, after, { lineDiff }] = await Promise.all([
        api.version(a),
        api.version(b),
        import('../../lib/line-diff'),
      ]);
      setDiff({ from: a, to: b, lines: lineDiff(before.code, after.code) });
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const pick = (id: string, label: string, value: number, set: (n: number) => void) => (
    <span class="inline-field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => (set(Number(e.currentTarget.value)), setDiff(null))}>
        {numbers.map((n) => (
          <option key={n} value={n}>
            version {n}
          </option>
        ))}
      </select>
    </span>
  );

  return (
    <section class="card" aria-labelledby="tx-versions-title">
      <h3 id="tx-versions-title">Versions</h3>
      {error && <Notice kind="error">{error}</Notice>}
      <div class="table-wrap">
        <table class="list" aria-labelledby="tx-versions-title">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Saved</th>
              <th scope="col">By</th>
              <th scope="col">Note</th>
              {api.may.restore && <th scope="col">Action</th>}
            </tr>
          </thead>
          <tbody>
            {view.versions.map((v) => (
              <tr key={v.version} data-version={v.version}>
                <td>
                  {v.version} {v.version === view.active_version && <span class="badge">runs now</span>}
                </td>
                <td>{utc(v.saved_at)}</td>
                <td>
                  {v.saved_by_name ? `${v.saved_by_name} ` : ''}
                  <code>{v.saved_by}…</code>
                </td>
                <td>{v.restored_from !== null ? `restored version ${v.restored_from}` : ''}</td>
                {api.may.restore && (
                  <td>
                    {v.version !== view.active_version && (
                      <button type="button" class="secondary" onClick={() => void restore(v.version)}>
                        Restore version {v.version}
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {numbers.length > 1 && (
        <div class="controls">
          {pick('tx-compare-from', 'Compare', a, setFrom)}
          {pick('tx-compare-to', 'with', b, setTo)}
          <button type="button" class="secondary" onClick={() => void compare()}>
            Show changes
          </button>
        </div>
      )}
      {diff && (
        <pre class="payload line-diff" aria-label={`Changes from version ${diff.from} to version ${diff.to}`}>
          {diff.lines.map((l, i) =>
            l.kind === 'added' ? (
              <ins key={i}>+ {l.text}</ins>
            ) : l.kind === 'removed' ? (
              <del key={i}>- {l.text}</del>
            ) : (
              <span key={i}>{`  ${l.text}`}</span>
            ),
          )}
        </pre>
      )}
    </section>
  );
}
