import { useEffect, useState } from 'preact/hooks';
import { messageOf } from '../../api';
import { CodeEditor } from '../../components/editor';
import { ErrorScope, ErrorSummary, GroupError, useFormErrors } from '../../components/form-errors';
import { Confirm, Loading, Notice } from '../../components/ui';
import type { Abilities } from '../../lib/roles';
import type { PreviewResult } from '../../lib/transform-preview';
import { PreviewResults } from './PreviewResults';
import { previewDraft, scopeApi } from './scope-api';
import type { Transformation, TransformationVersion } from '@relay/client';
import type { ScopeRef } from './scope-api';
import { Versions } from './Versions';

/** What a scope without any version starts from: the function that changes nothing. */
const STARTER = '(request, context) => {\n  return request;\n}\n';

/**
 * One scope's transformation: the code in an editor, a preview of the draft on the endpoint's
 * newest stored requests (nothing is delivered), save as the next version, remove, and the
 * versions kept. A role that may not save sees the code read-only and no controls.
 */
export function TransformationEditor(props: { scope: ScopeRef; can: Abilities }) {
  const api = scopeApi(props.scope, props.can);
  const [view, setView] = useState<Transformation | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<PreviewResult[] | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const form = useFormErrors();

  /** the scope as stored; the draft becomes `code`, or what runs (else the newest version's code) */
  const load = async (code?: string): Promise<void> => {
    const v = await api.get();
    setView(v);
    if (code !== undefined) setDraft(code);
    else if (v.code !== null) setDraft(v.code);
    else setDraft(v.latest_version > 0 ? (await api.version(v.latest_version)).code : STARTER);
  };
  useEffect(() => {
    load().catch((err: unknown) => setLoadError(messageOf(err)));
  }, [props.scope.endpointId, props.scope.targetId]);

  /** one change at a time; its outcome replaces the last one's */
  const act = async (what: () => Promise<string>): Promise<void> => {
    setBusy(true);
    setNotice(null);
    form.clear();
    try {
      setNotice(await what());
    } catch (err) {
      form.fail(err, messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const save = () =>
    act(async () => {
      const saved = await api.save(draft);
      await load(saved.code);
      return `Saved as version ${saved.version}: it runs on deliveries from now on.`;
    });
  const runPreview = () =>
    act(async () => {
      setPreview(null);
      const res = await previewDraft(props.scope, draft);
      setPreview(res.data);
      return res.data.length === 0
        ? 'No stored requests to try it on yet: send one to the ingest URL first.'
        : `Tried on the last ${res.data.length} request${res.data.length === 1 ? '' : 's'}; nothing was delivered.`;
    });
  const remove = () =>
    act(async () => {
      setConfirmRemove(false);
      await api.remove();
      await load(draft);
      return 'Removed: nothing runs now. The versions are kept; restore one to run it again.';
    });
  const restored = (v: TransformationVersion): Promise<void> =>
    act(async () => {
      await load(v.code);
      return `Version ${v.restored_from} restored as version ${v.version}: it runs on deliveries from now on.`;
    });

  if (loadError) return <Notice kind="error">{loadError}</Notice>;
  if (!view) return <Loading what="the transformation" />;
  const readOnly = !api.may.save;
  const status =
    view.active_version !== null
      ? `Version ${view.active_version} runs on every delivery.`
      : view.latest_version > 0
        ? 'Removed: nothing runs. The newest version is shown; save or restore one to run it again.'
        : 'No transformation: requests are delivered as received.';

  return (
    <ErrorScope form={form}>
      <div class="card tx-editor">
        <p class="tx-status" data-tx-status>
          {status}
          {!readOnly && view.code !== null && draft !== view.code && (
            <span class="badge badge--warn">Unsaved changes</span>
          )}
        </p>
        <ErrorSummary />
        <GroupError path="code" label="Transformation code" />
        <CodeEditor value={draft} label="Transformation code" readOnly={readOnly} onChange={(code) => setDraft(code)} />
        {!readOnly && (
          <div class="actions">
            {api.may.preview && (
              <button type="button" class="secondary" disabled={busy} onClick={() => void runPreview()}>
                Preview on last requests
              </button>
            )}
            {api.may.remove && view.active_version !== null && (
              <button type="button" class="danger" disabled={busy} onClick={() => setConfirmRemove(true)}>
                Remove…
              </button>
            )}
            <button type="button" disabled={busy} onClick={() => void save()}>
              Save as version {view.latest_version + 1}
            </button>
          </div>
        )}
        {notice && <Notice kind="ok">{notice}</Notice>}
      </div>
      {preview && preview.length > 0 && <PreviewResults results={preview} />}
      <Versions api={api} view={view} onRestored={(v) => void restored(v)} />
      <Confirm
        open={confirmRemove}
        title="Remove the transformation?"
        confirmLabel="Remove transformation"
        danger
        onConfirm={() => void remove()}
        onCancel={() => setConfirmRemove(false)}
      >
        <p>Deliveries from now on are sent without it. Its versions are kept and can be restored.</p>
      </Confirm>
    </ErrorScope>
  );
}
