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
import { SignedExample } from './endpoint/SignedExample';
import { TestRequest } from './endpoint/TestRequest';
import { Outputs } from './outputs/Outputs';

const TABS = [
  ['settings', 'Settings'],
  ['outputs', 'Outputs'],
  ['activity', 'Request activity'],
  ['audit', 'Audit history'],
] as const;

/** One endpoint: its state and controls, ingest URL, settings, outputs, activity and audit. */
export function EndpointPage(props: { id: string; tab?: string; can: Abilities }) {
  const [ep, setEp] = useState<Endpoint | null>(null);
  const [last, setLast] = useState<AuditRow | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [auditVersion, setAuditVersion] = useState(0);
  const tab = TABS.some(([t]) => t === props.tab) ? props.tab! : 'settings';

  const loadLast = (): void => {
    lastStateChange(props.id).then(setLast, () => setLast(null));
  };
  useEffect(() => {
    setEp(null);
    must(relay.GET('/v1/endpoints/{endpointId}', { params: { path: { endpointId: props.id } } })).then(setEp, (err) => setError(messageOf(err)));
    loadLast();
  }, [props.id]);

  if (error && !ep) return <Notice kind="error">{error}</Notice>;
  if (!ep) return <Loading what="the endpoint" />;

  const act = async (action: 'pause' | 'resume' | 'enable' | 'disable'): Promise<void> => {
    setError(null);
    try {
      setEp(await must(relay.POST(`/v1/endpoints/{endpointId}/${action}`, { params: { path: { endpointId: ep.id } } })));
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
      <p class="state-detail" id="state-detail">
        {state.detail}
      </p>
      {notice && <Notice kind="ok">{notice}</Notice>}
      {error && <Notice kind="error">{error}</Notice>}

      <section class="card controls" aria-label="State controls">
        <Switch id="enabled-switch" label="Enabled" checked={ep.enabled} disabled={!props.can.edit} onChange={(on) => void act(on ? 'enable' : 'disable')} />
        {ep.paused ? (
          <button type="button" disabled={!props.can.edit} onClick={() => void act('resume')}>
            Resume
          </button>
        ) : (
          <button type="button" class="secondary" disabled={!props.can.edit} onClick={() => void act('pause')}>
            Pause
          </button>
        )}
        <TestRequest endpoint={ep} can={props.can} />
        <button type="button" class="danger" disabled={!props.can.edit} onClick={() => setConfirmDelete(true)}>
          Delete…
        </button>
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
        {TABS.map(([t, label]) => (
          <a key={t} href={href('endpoints', ep.id, t)} aria-current={tab === t ? 'page' : undefined}>
            {label}
          </a>
        ))}
      </nav>
      {tab === 'settings' && (
        <>
          <SettingsForm endpoint={ep} can={props.can} onSaved={setEp} />
          <MaintenanceWindows endpoint={ep} can={props.can} onSaved={setEp} />
        </>
      )}
      {tab === 'outputs' && <Outputs endpointId={ep.id} can={props.can} />}
      {tab === 'activity' && <ActivityView endpointId={ep.id} can={props.can} />}
      {tab === 'audit' && <AuditHistory endpointId={ep.id} version={auditVersion} />}

      <Confirm open={confirmDelete} title={`Delete ${ep.name}?`} confirmLabel="Delete endpoint" danger onConfirm={() => void remove()} onCancel={() => setConfirmDelete(false)}>
        <p>
          The endpoint and its targets are deleted. Senders get 404 from then on. Its audit history is kept but no longer shown. This cannot be undone.
        </p>
      </Confirm>
    </article>
  );
}
