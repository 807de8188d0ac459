import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../api';
import { Confirm, CopyButton, Loading, Notice, Switch } from '../components/ui';
import { StateBadge, lastStateChange, stateText } from '../components/state';
import { curlLine, curlNote } from '../lib/curl';
import type { Abilities } from '../lib/roles';
import { utc } from '../lib/time';
import { go, href } from '../router';
import type { AuditRow, Endpoint } from '@relay/client';
import { ActivityView } from './activity/ActivityView';
import { AuditHistory } from './endpoint/AuditHistory';
import { MaintenanceWindows } from './endpoint/MaintenanceWindows';
import { SettingsForm } from './endpoint/SettingsForm';
import { ContractsEditor } from './endpoint/ContractsEditor';
import { SignedExample } from './endpoint/SignedExample';
import { TestRequest } from './endpoint/TestRequest';
import { Outputs } from './outputs/Outputs';
import { TransformationTab } from './transformation/TransformationTab';

/** Each tab with its name, and the shorter one a phone shows so the tabs stay on one row. */
const TABS = [
  ['settings', 'Settings', 'Settings'],
  ['outputs', 'Outputs', 'Outputs'],
  ['transformation', 'Transformation', 'Transform'],
  ['activity', 'Request activity', 'Activity'],
  ['audit', 'Audit history', 'Audit'],
] as const;

/**
 * One endpoint: its state and controls, ingest URL, settings, outputs, transformations, activity
 * and audit. `part` is a tab's own address part: the transformation tab's target.
 */
export function EndpointPage(props: { id: string; tab?: string; part?: string; can: Abilities }) {
  const [ep, setEp] = useState<Endpoint | null>(null);
  const [last, setLast] = useState<AuditRow | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmDisable, setConfirmDisable] = useState(false);
  const [auditVersion, setAuditVersion] = useState(0);
  const tab = TABS.some(([t]) => t === props.tab) ? props.tab! : 'settings';

  const loadLast = (): void => {
    lastStateChange(props.id).then(setLast, () => setLast(null));
  };
  useEffect(() => {
    setEp(null);
    must(relay.GET('/v1/endpoints/{endpointId}', { params: { path: { endpointId: props.id } } })).then(setEp, (err) =>
      setError(messageOf(err)),
    );
    loadLast();
  }, [props.id]);

  if (error && !ep) return <Notice kind="error">{error}</Notice>;
  if (!ep) return <Loading what="the endpoint" />;

  const act = async (action: 'pause' | 'resume' | 'enable' | 'disable'): Promise<void> => {
    // a confirmation belongs to the action before it: the next action clears it
    setError(null);
    setNotice(null);
    setConfirmDisable(false);
    try {
      setEp(
        await must(relay.POST(`/v1/endpoints/{endpointId}/${action}`, { params: { path: { endpointId: ep.id } } })),
      );
      setNotice(`Endpoint ${action === 'pause' ? 'paused' : action === 'resume' ? 'resumed' : action + 'd'}.`);
      loadLast();
      setAuditVersion((v) => v + 1);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const remove = async (): Promise<void> => {
    try {
      await must(relay.DELETE('/v1/endpoints/{endpointId}', { params: { path: { endpointId: ep.id } } }));
      go('endpoints');
    } catch (err) {
      setConfirmDelete(false);
      setError(messageOf(err));
    }
  };
  const state = stateText(ep, last);
  const curl = curlLine(ep);
  const note = curlNote(ep);

  return (
    <article aria-labelledby="ep-title">
      <p class="crumbs">
        <a href={href('endpoints')}>Endpoints</a> /
      </p>
      <div class="title-row">
        <h1 id="ep-title">{ep.name}</h1>
        <StateBadge endpoint={ep} last={last} />
      </div>
      <p class="state-detail" id="state-detail" data-state-line>
        {state.detail}
      </p>

      <section class="card controls" aria-label="State controls">
        <Switch
          id="enabled-switch"
          label="Enabled"
          describedBy="enabled-hint"
          checked={ep.enabled}
          disabled={!props.can.may(ep.enabled ? 'disableEndpoint' : 'enableEndpoint')}
          onChange={(on) => (on ? void act('enable') : (setNotice(null), setConfirmDisable(true)))}
        />
        {ep.paused ? (
          <button
            type="button"
            aria-describedby="pause-hint"
            disabled={!props.can.may('resumeEndpoint')}
            onClick={() => void act('resume')}
          >
            Resume
          </button>
        ) : (
          <button
            type="button"
            class="secondary"
            aria-describedby="pause-hint"
            disabled={!props.can.may('pauseEndpoint')}
            onClick={() => void act('pause')}
          >
            Pause
          </button>
        )}
        <TestRequest endpoint={ep} can={props.can} />
        <button
          type="button"
          class="danger"
          disabled={!props.can.may('deleteEndpoint')}
          onClick={() => (setNotice(null), setConfirmDelete(true))}
        >
          Delete…
        </button>
        <p class="hint controls-hint" id="enabled-hint">
          <strong>Enabled</strong> off: senders get 404, as if the endpoint did not exist, until it is enabled again.
        </p>
        <p class="hint controls-hint" id="pause-hint">
          <strong>Pause</strong>: senders get 503 and retry later; nothing is lost. Resume when ready.
        </p>
        {notice && <Notice kind="ok">{notice}</Notice>}
        {error && <Notice kind="error">{error}</Notice>}
      </section>

      <section class="card" aria-labelledby="ingest-title">
        <h2 id="ingest-title">Ingest URL</h2>
        <div class="copy-row">
          <input aria-label="Ingest URL" readOnly value={ep.ingest_url} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={ep.ingest_url} label="Copy the ingest URL" />
        </div>
        <div class="copy-row">
          <pre class="curl" aria-label="A ready curl line" data-curl tabIndex={0}>
            {curl}
          </pre>
          <CopyButton text={curl} label="Copy the curl line" />
        </div>
        {note && <p class="hint">{note}</p>}
        <SignedExample endpoint={ep} />
        <p class="hint">
          ID <code>{ep.id}</code> · revision {ep.revision} · created {utc(ep.created_at)}
        </p>
      </section>

      <nav class="tabs" aria-label="Endpoint sections">
        {TABS.map(([t, label, short]) => (
          <a key={t} href={href('endpoints', ep.id, t)} aria-current={tab === t ? 'page' : undefined}>
            <span class="wide-only-inline">{label}</span>
            <span class="narrow-only-inline">{short}</span>
          </a>
        ))}
      </nav>
      {tab === 'settings' && (
        <>
          <SettingsForm endpoint={ep} can={props.can} onSaved={setEp} />
          <ContractsEditor endpoint={ep} can={props.can} onSaved={setEp} />
          <MaintenanceWindows endpoint={ep} can={props.can} onSaved={setEp} />
        </>
      )}
      {tab === 'outputs' && <Outputs endpointId={ep.id} can={props.can} />}
      {tab === 'transformation' && (
        <TransformationTab endpointId={ep.id} targetId={props.part ?? null} can={props.can} />
      )}
      {tab === 'activity' && <ActivityView endpointId={ep.id} can={props.can} />}
      {tab === 'audit' && <AuditHistory endpointId={ep.id} version={auditVersion} />}

      <Confirm
        open={confirmDisable}
        title={`Disable ${ep.name}?`}
        confirmLabel="Disable endpoint"
        danger
        onConfirm={() => void act('disable')}
        onCancel={() => setConfirmDisable(false)}
      >
        <p>
          Senders get 404 from now on, as if the endpoint did not exist — most providers stop retrying and may switch
          the webhook off. To hold requests for a while instead, cancel and use Pause (503: senders retry later).
        </p>
      </Confirm>
      <Confirm
        open={confirmDelete}
        title={`Delete ${ep.name}?`}
        confirmLabel="Delete endpoint"
        danger
        onConfirm={() => void remove()}
        onCancel={() => setConfirmDelete(false)}
      >
        <p>
          The endpoint and its targets are deleted. Senders get 404 from then on. Its audit history is kept but no
          longer shown. This cannot be undone.
        </p>
      </Confirm>
    </article>
  );
}
