import { useState } from 'preact/hooks';
import { api } from '../../api';
import { ErrorSummary, Field } from '../../components/ui';
import { useFormErrors } from '../../components/form-errors';
import { errorMap, fieldFor } from '../../lib/fields';
import type { Target } from '../../types';

interface HeaderRow {
  name: string;
  value: string;
  sensitive: boolean;
  /** a stored sensitive value: write-only, must be typed again to keep it on a new config */
  stored: boolean;
}

type Any = Record<string, any>;

/**
 * Adds a target, or edits one. A target's name is changed in place; a changed configuration is
 * saved as a new target that replaces the old one (the API keeps configurations immutable), and
 * because secrets can never be read back, a replacement needs its secret values typed again.
 */
export function TargetForm(props: { endpointId: string; replacing: Target | null; onDone: (t: Target) => void; onCancel: () => void }) {
  const old = props.replacing;
  const c: Any = old?.config ?? {};
  const [kind, setKind] = useState(old?.kind ?? 'webhook');
  const [name, setName] = useState(old?.name ?? '');
  const [configTouched, setConfigTouched] = useState(old === null);
  const [url, setUrl] = useState(old?.kind === 'webhook' ? String(c.url ?? '') : '');
  const [enforceHttps, setEnforceHttps] = useState(old ? c.enforce_https !== false : true);
  const [authType, setAuthType] = useState<string>(c.auth?.type ?? 'none');
  const [authHeader, setAuthHeader] = useState<string>(c.auth?.header ?? '');
  const [authUser, setAuthUser] = useState<string>(c.auth?.username ?? '');
  const [authSecret, setAuthSecret] = useState('');
  const [headers, setHeaders] = useState<HeaderRow[]>(((c.custom_headers ?? []) as Any[]).map((h) => ({ name: h.name, value: h.sensitive ? '' : h.value, sensitive: h.sensitive, stored: h.sensitive })));
  const [forwardMode, setForwardMode] = useState<string>(c.forward_headers?.mode ?? 'none');
  const [forwardNames, setForwardNames] = useState<string>((c.forward_headers?.names ?? []).join('\n'));
  const [template, setTemplate] = useState<string>(c.template ?? '');
  const [tts, setTts] = useState<string>(c.tts === true ? 'on' : c.tts === false ? 'off' : '');
  const [markup, setMarkup] = useState<boolean>(c.markup !== false);
  const { errors, message, fail } = useFormErrors();
  const touch = <T,>(setter: (v: T) => void) => (v: T) => (setter(v), setConfigTouched(true));

  const config = (): Any => {
    if (kind !== 'webhook') {
      const out: Any = { url };
      if (template) out.template = template;
      if (kind === 'embed_chat' && tts) out.tts = tts === 'on';
      if (kind === 'block_chat') out.markup = markup;
      return out;
    }
    const auth: Any = { type: authType };
    if (authType === 'bearer') auth.token = authSecret;
    if (authType === 'api_key') Object.assign(auth, { header: authHeader, key: authSecret });
    if (authType === 'basic') Object.assign(auth, { username: authUser, password: authSecret });
    const names = forwardNames.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);
    return {
      url,
      enforce_https: enforceHttps,
      auth,
      custom_headers: headers.map((h) => ({ name: h.name, value: h.value, sensitive: h.sensitive })),
      forward_headers: forwardMode === 'list' ? { mode: 'list', names } : { mode: forwardMode },
    };
  };

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    try {
      const target =
        old && !configTouched
          ? await api<Target>(`/v1/endpoints/${props.endpointId}/targets/${old.id}`, { method: 'PATCH', body: { name } })
          : await api<Target>(`/v1/endpoints/${props.endpointId}/targets`, { method: 'POST', body: { kind, name, enabled: old?.enabled ?? true, config: config() } });
      props.onDone(target);
    } catch (err) {
      fail(err);
    }
  };

  const known = new Set(['kind', 'name', 'config', 'config.url', 'config.enforce_https', 'config.auth', 'config.auth.type', 'config.auth.header', 'config.auth.username', 'config.auth.token', 'config.auth.key', 'config.auth.password', 'config.custom_headers', 'config.forward_headers', 'config.forward_headers.names', 'config.template', 'config.tts', 'config.markup', ...headers.flatMap((_, i) => [`config.custom_headers[${i}].name`, `config.custom_headers[${i}].value`])]);
  const map = errorMap(errors.map((x) => ({ ...x, field: fieldFor(x.field, known) ?? x.field })));
  const unplaced = errors.filter((x) => fieldFor(x.field, known) === null);
  const secretPath = authType === 'bearer' ? 'config.auth.token' : authType === 'api_key' ? 'config.auth.key' : 'config.auth.password';
  const setHeader = (i: number, patch: Partial<HeaderRow>): void => (setHeaders(headers.map((h, j) => (j === i ? { ...h, ...patch, stored: patch.value !== undefined ? false : h.stored } : h))), setConfigTouched(true));

  return (
    <form class="card target-form" onSubmit={(e) => void submit(e)} aria-label={old ? `Edit ${old.name}` : 'Add a target'} noValidate>
      <h3>{old ? `Edit ${old.name}` : 'Add a target'}</h3>
      <ErrorSummary message={message} unplaced={unplaced} />
      {old && <p class="hint">Renaming keeps the target. Changing its configuration saves a new target in its place; write-only values (marked “set”) must then be entered again.</p>}
      <div class="grid">
        <Field path="kind" label="Kind" errors={map}>
          {(a) => (
            <select {...a} value={kind} disabled={old !== null} onChange={(e) => setKind(e.currentTarget.value)}>
              <option value="webhook">Webhook URL</option>
              <option value="embed_chat">Embed-style chat webhook (Discord-like)</option>
              <option value="block_chat">Block-style chat webhook (Slack-like)</option>
            </select>
          )}
        </Field>
        <Field path="name" label="Target name" errors={map}>
          {(a) => <input {...a} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
      </div>
      {kind === 'webhook' ? (
        <>
          <div class="grid">
            <Field path="config.url" label="Target URL" errors={map}>
              {(a) => <input {...a} type="url" value={url} placeholder="https://hooks.example.com/in" onInput={(e) => touch(setUrl)(e.currentTarget.value)} />}
            </Field>
            <label class="check">
              <input type="checkbox" checked={enforceHttps} onChange={(e) => touch(setEnforceHttps)(e.currentTarget.checked)} /> Enforce HTTPS
            </label>
          </div>
          <fieldset class="group">
            <legend>Outbound authentication</legend>
            <div class="grid">
              <Field path="config.auth.type" label="Type" errors={map}>
                {(a) => (
                  <select {...a} value={authType} onChange={(e) => touch(setAuthType)(e.currentTarget.value)}>
                    <option value="none">None</option>
                    <option value="bearer">Bearer</option>
                    <option value="api_key">API key</option>
                    <option value="basic">Basic</option>
                  </select>
                )}
              </Field>
              {authType === 'api_key' && (
                <Field path="config.auth.header" label="Header name" errors={map}>
                  {(a) => <input {...a} value={authHeader} onInput={(e) => touch(setAuthHeader)(e.currentTarget.value)} />}
                </Field>
              )}
              {authType === 'basic' && (
                <Field path="config.auth.username" label="Username" errors={map}>
                  {(a) => <input {...a} value={authUser} autoComplete="off" onInput={(e) => touch(setAuthUser)(e.currentTarget.value)} />}
                </Field>
              )}
              {authType !== 'none' && (
                <Field path={secretPath} label={authType === 'bearer' ? 'Token' : authType === 'api_key' ? 'Key' : 'Password'} errors={map} hint={old && c.auth?.type === authType ? 'Currently set; write-only. Enter it again to save a changed configuration.' : 'Write-only: never displayed after saving.'}>
                  {(a) => <input {...a} type="password" autoComplete="new-password" value={authSecret} onInput={(e) => touch(setAuthSecret)(e.currentTarget.value)} />}
                </Field>
              )}
            </div>
          </fieldset>
          <fieldset class="group">
            <legend>Custom headers (at most 25)</legend>
            {map.get('config.custom_headers') && <p class="field-error">{map.get('config.custom_headers')!.join('; ')}</p>}
            {headers.map((h, i) => (
              <div class="row" key={i}>
                <Field path={`config.custom_headers[${i}].name`} label={`Header ${i + 1} name`} errors={map}>
                  {(a) => <input {...a} value={h.name} onInput={(e) => setHeader(i, { name: e.currentTarget.value })} />}
                </Field>
                <Field path={`config.custom_headers[${i}].value`} label="Value" errors={map} hint={h.stored ? 'set — write-only; enter it again to keep it' : 'May use {{originating_ip}}, {{uuid}}, {{event_id}}…'}>
                  {(a) => <input {...a} type={h.sensitive ? 'password' : 'text'} autoComplete="off" value={h.value} placeholder={h.stored ? 'set' : ''} onInput={(e) => setHeader(i, { value: e.currentTarget.value })} />}
                </Field>
                <label class="check">
                  <input type="checkbox" checked={h.sensitive} onChange={(e) => setHeader(i, { sensitive: e.currentTarget.checked })} /> Sensitive
                </label>
                <button type="button" class="secondary" aria-label={`Remove header ${i + 1}`} onClick={() => (setHeaders(headers.filter((_, j) => j !== i)), setConfigTouched(true))}>
                  Remove
                </button>
              </div>
            ))}
            {headers.length < 25 && (
              <button type="button" class="secondary" onClick={() => (setHeaders([...headers, { name: '', value: '', sensitive: false, stored: false }]), setConfigTouched(true))}>
                Add header
              </button>
            )}
          </fieldset>
          <fieldset class="group">
            <legend>Header forwarding</legend>
            <div class="checks" role="radiogroup" aria-label="Header forwarding">
              {[
                ['none', 'Forward none'],
                ['all', 'Forward all permitted incoming headers'],
                ['list', 'Forward only these'],
              ].map(([v, label]) => (
                <label key={v}>
                  <input type="radio" name="forward-mode" value={v} checked={forwardMode === v} onChange={() => touch(setForwardMode)(v!)} /> {label}
                </label>
              ))}
            </div>
            {forwardMode === 'list' && (
              <Field path="config.forward_headers.names" label="Header names (one per line)" errors={map} hint="A listed header the request lacks is skipped.">
                {(a) => <textarea {...a} rows={3} value={forwardNames} onInput={(e) => touch(setForwardNames)(e.currentTarget.value)} />}
              </Field>
            )}
          </fieldset>
        </>
      ) : (
        <div class="grid">
          <Field path="config.url" label="Chat webhook URL" errors={map} hint={old ? 'Write-only (it holds the platform’s token): enter it again to save a changed configuration.' : kind === 'embed_chat' ? 'https://discord.com/api/webhooks/<id>/<token>' : 'https://hooks.slack.com/services/<path>'}>
            {(a) => <input {...a} type="password" autoComplete="off" value={url} onInput={(e) => touch(setUrl)(e.currentTarget.value)} />}
          </Field>
          <Field path="config.template" label="Message template (optional)" errors={map} hint="{{path.to.field}} over the payload; empty: the payload as is.">
            {(a) => <textarea {...a} rows={3} value={template} onInput={(e) => touch(setTemplate)(e.currentTarget.value)} />}
          </Field>
          {kind === 'embed_chat' ? (
            <Field path="config.tts" label="Text-to-speech default" errors={map}>
              {(a) => (
                <select {...a} value={tts} onChange={(e) => touch(setTts)(e.currentTarget.value)}>
                  <option value="">unset</option>
                  <option value="on">on</option>
                  <option value="off">off</option>
                </select>
              )}
            </Field>
          ) : (
            <label class="check">
              <input type="checkbox" checked={markup} onChange={(e) => touch(setMarkup)(e.currentTarget.checked)} /> Use the chat service’s own markup
            </label>
          )}
        </div>
      )}
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit">{old ? (configTouched ? 'Save as new configuration' : 'Save name') : 'Add target'}</button>
      </div>
    </form>
  );
}
