import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from '../../api';
import { Confirm, Loading, Notice, Switch } from '../../components/ui';
import type { Abilities } from '../../lib/roles';
import { utc } from '../../lib/time';
import type { Target } from '../../types';
import { TargetForm } from './TargetForm';

const KIND_LABELS: Record<string, string> = { webhook: 'Webhook URL', embed_chat: 'Embed-style chat webhook', block_chat: 'Block-style chat webhook' };

/** The endpoint's targets (spec "Outputs"): add, rename, switch, replace, delete, clear a flag. */
export function Outputs(props: { endpointId: string; can: Abilities }) {
  const [targets, setTargets] = useState<Target[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [replacing, setReplacing] = useState<Target | null>(null);
  const [deleting, setDeleting] = useState<Target | null>(null);
  const base = `/v1/endpoints/${props.endpointId}/targets`;
  const load = (): void => {
    api<{ data: Target[] }>(base).then((r) => setTargets(r.data), (err) => setError(messageOf(err)));
  };
  useEffect(load, [props.endpointId]);

  const run = async (what: () => Promise<unknown>, done: string): Promise<void> => {
    setError(null);
    try {
      await what();
      setNotice(done);
      load();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const created = async (t: Target): Promise<void> => {
    // a changed configuration is a new target (the API keeps configs immutable): the old one goes
    if (replacing) await run(() => api(`${base}/${replacing.id}`, { method: 'DELETE' }), `Target replaced by ${t.name}.`);
    else setNotice(`Target ${t.name} added.`);
    setAdding(false);
    setReplacing(null);
    load();
  };

  return (
    <section aria-labelledby="outputs-title">
      <h2 id="outputs-title">Outputs</h2>
      {notice && <Notice kind="ok">{notice}</Notice>}
      {error && <Notice kind="error">{error}</Notice>}
      {!targets && !error && <Loading what="targets" />}
      {targets && targets.length === 0 && <p>No targets: accepted requests are logged but go nowhere.</p>}
      {targets?.map((t) => (
        <div class={`card target${t.flagged ? ' target--flagged' : ''}`} key={t.id} aria-labelledby={`t-${t.id}`}>
          <div class="title-row">
            <h3 id={`t-${t.id}`}>{t.name}</h3>
            <span class="badge">{KIND_LABELS[t.kind] ?? t.kind}</span>
            {t.flagged && <span class="state state--disabled">Flagged</span>}
          </div>
          {t.flagged && (
            <div class="notice notice--error" role="note">
              <p>
                <strong>Deliveries to this target are stopped</strong> since {utc(t.flagged.at)}: {t.flagged.reason}
              </p>
              <p>
                Fix the destination (or replace this target's configuration), then clear the flag. Deliveries dead-lettered meanwhile are sent again with <code>npm run redrive</code>.
              </p>
              {props.can.edit && (
                <button type="button" onClick={() => void run(() => api(`${base}/${t.id}/flag`, { method: 'DELETE' }), `Flag of ${t.name} cleared.`)}>
                  Clear flag
                </button>
              )}
            </div>
          )}
          <ConfigSummary target={t} />
          <div class="controls">
            <Switch id={`enabled-${t.id}`} label="Enabled" checked={t.enabled} disabled={!props.can.edit} onChange={(on) => void run(() => api(`${base}/${t.id}`, { method: 'PATCH', body: { enabled: on } }), `${t.name} ${on ? 'enabled' : 'disabled'}.`)} />
            {props.can.edit && (
              <>
                <button type="button" class="secondary" onClick={() => (setReplacing(t), setAdding(false))}>
                  Edit…
                </button>
                <button type="button" class="danger" onClick={() => setDeleting(t)}>
                  Delete…
                </button>
              </>
            )}
          </div>
          {replacing?.id === t.id && <TargetForm endpointId={props.endpointId} replacing={t} onDone={(n) => void created(n)} onCancel={() => setReplacing(null)} />}
        </div>
      ))}
      {props.can.edit &&
        (adding ? (
          <TargetForm endpointId={props.endpointId} replacing={null} onDone={(n) => void created(n)} onCancel={() => setAdding(false)} />
        ) : (
          <button type="button" onClick={() => (setAdding(true), setReplacing(null))}>
            Add target
          </button>
        ))}
      <Confirm open={deleting !== null} title={`Delete ${deleting?.name ?? ''}?`} confirmLabel="Delete target" danger onConfirm={() => (deleting && void run(() => api(`${base}/${deleting.id}`, { method: 'DELETE' }), `${deleting.name} deleted.`), setDeleting(null))} onCancel={() => setDeleting(null)}>
        <p>Requests accepted from now on are no longer delivered to it.</p>
      </Confirm>
    </section>
  );
}

const duration = (ms: number): string => (ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : ms % 60_000 === 0 ? `${ms / 60_000}min` : `${ms / 1000}s`);

/** The public view of a config: secrets appear only as "set". */
function ConfigSummary(props: { target: Target }) {
  const c = props.target.config as Record<string, any>;
  const secret = <span class="badge">set</span>;
  const schedule = props.target.retry_schedule_ms ?? props.target.default_retry_schedule_ms;
  return (
    <dl class="config">
      <dt>URL</dt>
      <dd>
        <code class="break">{String(c.url ?? '')}</code>
      </dd>
      {props.target.kind === 'webhook' && (
        <>
          <dt>Enforce HTTPS</dt>
          <dd>{c.enforce_https ? 'on' : 'off'}</dd>
          <dt>Outbound auth</dt>
          <dd>
            {c.auth?.type ?? 'none'}
            {c.auth?.type === 'api_key' && <> · header <code>{c.auth.header}</code></>}
            {c.auth?.type === 'basic' && <> · user <code>{c.auth.username}</code></>}
            {c.auth?.type && c.auth.type !== 'none' && <> · secret {secret}</>}
          </dd>
          <dt>Custom headers</dt>
          <dd>
            {(c.custom_headers ?? []).length === 0
              ? 'none'
              : (c.custom_headers as Array<{ name: string; value: string; sensitive: boolean }>).map((h) => (
                  <span key={h.name} class="chip">
                    {h.name}: {h.sensitive ? secret : <code>{h.value}</code>}
                  </span>
                ))}
          </dd>
          <dt>Header forwarding</dt>
          <dd>{c.forward_headers?.mode === 'list' ? `these: ${(c.forward_headers.names as string[]).join(', ')}` : c.forward_headers?.mode === 'all' ? 'all permitted headers' : 'none'}</dd>
          <dt>Signing</dt>
          <dd>{c.signing ? <>Standard Webhooks, secret {secret}</> : 'off'}</dd>
        </>
      )}
      {props.target.kind !== 'webhook' && (
        <>
          <dt>Template</dt>
          <dd>{c.template ? <code class="break">{String(c.template)}</code> : 'default'}</dd>
          {props.target.kind === 'embed_chat' && (
            <>
              <dt>TTS default</dt>
              <dd>{c.tts === true ? 'on' : c.tts === false ? 'off' : 'unset'}</dd>
            </>
          )}
          {props.target.kind === 'block_chat' && (
            <>
              <dt>Markup</dt>
              <dd>{c.markup === false ? 'off' : 'on'}</dd>
            </>
          )}
        </>
      )}
      <dt>Retry schedule</dt>
      <dd>{schedule ? `${schedule.map(duration).join(', ')}${props.target.retry_schedule_ms ? '' : ' (default)'}` : 'default'}</dd>
    </dl>
  );
}
