import { useEffect, useState } from 'preact/hooks';
import { RelayApiError, messageOf, must, relay } from '../../api';
import { ErrorSummary, Field, Notice } from '../../components/ui';
import { useFormErrors } from '../../components/form-errors';
import { errorMap, fieldFor } from '../../lib/fields';
import type { Abilities } from '../../lib/roles';
import { BODY_FILTER_KINDS, CAPTCHA_PROVIDERS, FIELD_TYPES, METHODS, PAYLOAD_FORMATS, PAYLOAD_FORMAT_LABELS, changedSettings, draftOf, settingsBody } from '../../lib/settings';
import type { SettingsDraft } from '../../lib/settings';
import type { Endpoint } from '@relay/client';
import { AuthEditor, authFieldPaths } from './AuthEditor';

/**
 * Every endpoint setting in one form. Saving sends only what changed (a PATCH replaces each
 * named setting whole); the API's validation messages come back per field path and are shown
 * at that field, or at the nearest part of the form that holds it.
 */
export function SettingsForm(props: { endpoint: Endpoint; can: Abilities; onSaved: (ep: Endpoint) => void }) {
  const [d, setD] = useState<SettingsDraft>(() => draftOf(props.endpoint));
  const { errors, message, fail, clear } = useFormErrors();
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => setD(draftOf(props.endpoint)), [props.endpoint.revision]);
  const ro = !props.can.edit;
  const set = (patch: Partial<SettingsDraft>): void => setD({ ...d, ...patch });

  const known = new Set([
    'name', 'methods', 'payload_format', 'query_param_name', 'query_param_required', 'required_headers', 'body_filters', 'field_rules',
    'ip_access.allow', 'ip_access.deny', 'ip_access', 'captcha', 'captcha.provider', 'captcha.secret', 'captcha.verify_url', 'captcha.field', 'rate_limit_per_minute',
    ...authFieldPaths(d.auth),
    ...d.required_headers.flatMap((_, i) => [`required_headers[${i}].name`, `required_headers[${i}].value`]),
    ...d.body_filters.flatMap((_, i) => [`body_filters[${i}].kind`, `body_filters[${i}].value`, `body_filters[${i}].pattern`, `body_filters[${i}]`]),
    ...d.field_rules.flatMap((_, i) => [`field_rules[${i}].path`, `field_rules[${i}].type`, `field_rules[${i}].pattern`, `field_rules[${i}]`]),
  ]);
  // each API error at its field (or the nearest enclosing one the form has)
  const placedErrors = errors.map((e) => ({ ...e, field: fieldFor(e.field, known) ?? e.field }));
  const map = errorMap(placedErrors);
  const unplaced = errors.filter((e) => fieldFor(e.field, known) === null);

  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    setSaved(null);
    const body = changedSettings(props.endpoint, settingsBody(d));
    if (Object.keys(body).length === 0) {
      setSaved('Nothing changed.');
      return;
    }
    try {
      const ep = await must(relay.PATCH('/v1/endpoints/{endpointId}', { params: { path: { endpointId: props.endpoint.id } }, body }));
      clear();
      setSaved('Settings saved.');
      props.onSaved(ep);
    } catch (err) {
      fail(err, err instanceof RelayApiError && err.errors.length ? `The settings were not saved: ${err.errors.length} problem${err.errors.length > 1 ? 's' : ''}, shown at the fields below.` : messageOf(err));
    }
  };
  const rows = <K extends 'required_headers' | 'body_filters' | 'field_rules'>(k: K, i: number, patch: Partial<SettingsDraft[K][number]>): void =>
    set({ [k]: (d[k] as Array<SettingsDraft[K][number]>).map((r, j) => (j === i ? { ...r, ...patch } : r)) } as Partial<SettingsDraft>);
  const drop = (k: 'required_headers' | 'body_filters' | 'field_rules', i: number): void => set({ [k]: (d[k] as unknown[]).filter((_, j) => j !== i) } as Partial<SettingsDraft>);
  const groupError = (k: string) => map.get(k) && <p class="field-error">{map.get(k)!.join('; ')}</p>;

  return (
    <form class="card settings" onSubmit={(e) => void save(e)} aria-labelledby="settings-title" noValidate>
      <h2 id="settings-title">Settings</h2>
      <ErrorSummary message={message} unplaced={unplaced} />
      {saved && <Notice kind="ok">{saved}</Notice>}
      <div class="grid">
        <Field path="name" label="Name" errors={map}>
          {(a) => <input {...a} value={d.name} disabled={ro} onInput={(e) => set({ name: e.currentTarget.value })} />}
        </Field>
        <Field path="rate_limit_per_minute" label="Rate limit (requests per minute)" errors={map} hint="Empty: the default, 600 per minute.">
          {(a) => <input {...a} inputMode="numeric" value={d.rate_limit} disabled={ro} onInput={(e) => set({ rate_limit: e.currentTarget.value })} />}
        </Field>
      </div>
      <fieldset class="group" aria-describedby={map.get('methods') ? 'f-methods-error' : undefined}>
        <legend>HTTP methods</legend>
        <div class="checks" id="f-methods">
          {METHODS.map((m) => (
            <label key={m}>
              <input type="checkbox" checked={d.methods.includes(m)} disabled={ro} onChange={(e) => set({ methods: e.currentTarget.checked ? METHODS.filter((x) => x === m || d.methods.includes(x)) : d.methods.filter((x) => x !== m) })} /> {m}
            </label>
          ))}
        </div>
        {map.get('methods') && (
          <p class="field-error" id="f-methods-error" data-field-error="methods">
            {map.get('methods')!.join('; ')}
          </p>
        )}
      </fieldset>
      <div class="grid">
        <Field path="payload_format" label="Payload format" errors={map}>
          {(a) => (
            <select {...a} value={d.payload_format} disabled={ro} onChange={(e) => set({ payload_format: e.currentTarget.value })}>
              {PAYLOAD_FORMATS.map((f) => (
                <option key={f} value={f}>
                  {PAYLOAD_FORMAT_LABELS[f]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {d.payload_format === 'query_base64_json' && (
          <>
            <Field path="query_param_name" label="Query parameter name" errors={map} hint="At most 255 characters; no spaces, control characters, # or ?.">
              {(a) => <input {...a} value={d.query_param_name} disabled={ro} onInput={(e) => set({ query_param_name: e.currentTarget.value })} />}
            </Field>
            <label class="check">
              <input type="checkbox" checked={d.query_param_required} disabled={ro} onChange={(e) => set({ query_param_required: e.currentTarget.checked })} /> The parameter is required
            </label>
          </>
        )}
      </div>

      <AuthEditor draft={d.auth} errors={map} disabled={ro} onChange={(auth) => set({ auth })} />

      <fieldset class="group">
        <legend>Required headers</legend>
        {groupError('required_headers')}
        {d.required_headers.map((h, i) => (
          <div class="row" key={i}>
            <Field path={`required_headers[${i}].name`} label={`Header ${i + 1} name`} errors={map}>
              {(a) => <input {...a} value={h.name} disabled={ro} onInput={(e) => rows('required_headers', i, { name: e.currentTarget.value })} />}
            </Field>
            <Field path={`required_headers[${i}].value`} label="Expected value (optional)" errors={map}>
              {(a) => <input {...a} value={h.value} disabled={ro} onInput={(e) => rows('required_headers', i, { value: e.currentTarget.value })} />}
            </Field>
            {!ro && (
              <button type="button" class="secondary" aria-label={`Remove header ${i + 1}`} onClick={() => drop('required_headers', i)}>
                Remove
              </button>
            )}
          </div>
        ))}
        {!ro && (
          <button type="button" class="secondary" onClick={() => set({ required_headers: [...d.required_headers, { name: '', value: '' }] })}>
            Add header
          </button>
        )}
      </fieldset>

      <fieldset class="group">
        <legend>Body filters</legend>
        {groupError('body_filters')}
        {d.body_filters.map((f, i) => (
          <div class="row" key={i}>
            <Field path={`body_filters[${i}].kind`} label={`Filter ${i + 1}`} errors={map}>
              {(a) => (
                <select {...a} value={f.kind} disabled={ro} onChange={(e) => rows('body_filters', i, { kind: e.currentTarget.value })}>
                  {BODY_FILTER_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {k.replace('_', ' ')}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field path={f.kind.endsWith('regex') ? `body_filters[${i}].pattern` : `body_filters[${i}].value`} label={f.kind.endsWith('regex') ? 'Pattern (RE2)' : 'Text'} errors={map}>
              {(a) => <input {...a} value={f.text} disabled={ro} onInput={(e) => rows('body_filters', i, { text: e.currentTarget.value })} />}
            </Field>
            <label class="check">
              <input type="checkbox" checked={f.case_insensitive} disabled={ro} onChange={(e) => rows('body_filters', i, { case_insensitive: e.currentTarget.checked })} /> Ignore case
            </label>
            {!ro && (
              <button type="button" class="secondary" aria-label={`Remove filter ${i + 1}`} onClick={() => drop('body_filters', i)}>
                Remove
              </button>
            )}
          </div>
        ))}
        {!ro && (
          <button type="button" class="secondary" onClick={() => set({ body_filters: [...d.body_filters, { kind: 'contains', text: '', case_insensitive: false }] })}>
            Add filter
          </button>
        )}
      </fieldset>

      <fieldset class="group">
        <legend>Field validation rules</legend>
        {groupError('field_rules')}
        {d.field_rules.map((r, i) => (
          <div class="row" key={i}>
            <Field path={`field_rules[${i}].path`} label={`Rule ${i + 1} field path`} errors={map}>
              {(a) => <input {...a} value={r.path} placeholder="order.id" disabled={ro} onInput={(e) => rows('field_rules', i, { path: e.currentTarget.value })} />}
            </Field>
            <Field path={`field_rules[${i}].type`} label="Type" errors={map}>
              {(a) => (
                <select {...a} value={r.type} disabled={ro} onChange={(e) => rows('field_rules', i, { type: e.currentTarget.value })}>
                  <option value="">any</option>
                  {FIELD_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field path={`field_rules[${i}].pattern`} label="Pattern (optional)" errors={map}>
              {(a) => <input {...a} value={r.pattern} disabled={ro} onInput={(e) => rows('field_rules', i, { pattern: e.currentTarget.value })} />}
            </Field>
            <label class="check">
              <input type="checkbox" checked={r.required} disabled={ro} onChange={(e) => rows('field_rules', i, { required: e.currentTarget.checked })} /> Required
            </label>
            {!ro && (
              <button type="button" class="secondary" aria-label={`Remove rule ${i + 1}`} onClick={() => drop('field_rules', i)}>
                Remove
              </button>
            )}
          </div>
        ))}
        {!ro && (
          <button type="button" class="secondary" onClick={() => set({ field_rules: [...d.field_rules, { path: '', type: '', required: true, pattern: '' }] })}>
            Add rule
          </button>
        )}
      </fieldset>

      <fieldset class="group">
        <legend>IP access</legend>
        <div class="grid">
          <Field path="ip_access.allow" label="Allow (one address or CIDR range per line)" errors={map} hint="Empty: every address.">
            {(a) => <textarea {...a} rows={3} value={d.ip_allow} disabled={ro} onInput={(e) => set({ ip_allow: e.currentTarget.value })} />}
          </Field>
          <Field path="ip_access.deny" label="Deny (one per line)" errors={map}>
            {(a) => <textarea {...a} rows={3} value={d.ip_deny} disabled={ro} onInput={(e) => set({ ip_deny: e.currentTarget.value })} />}
          </Field>
        </div>
      </fieldset>

      <fieldset class="group">
        <legend>Captcha</legend>
        {groupError('captcha')}
        <label class="check">
          <input type="checkbox" checked={d.captcha.on} disabled={ro} onChange={(e) => set({ captcha: { ...d.captcha, on: e.currentTarget.checked, touched: true } })} /> Verify a captcha token in the body (JSON, form and XML only)
        </label>
        {d.captcha.on && (
          <div class="grid">
            <Field path="captcha.provider" label="Provider" errors={map}>
              {(a) => (
                <select {...a} value={d.captcha.provider} disabled={ro} onChange={(e) => set({ captcha: { ...d.captcha, provider: e.currentTarget.value, keep: false, touched: true } })}>
                  {CAPTCHA_PROVIDERS.map((p) => (
                    <option key={p} value={p}>
                      {p}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {d.captcha.keep && d.captcha.stored ? (
              <div class="field">
                <span class="label-like">Secret</span>
                <p class="secret-set">
                  <span class="badge">set</span> <span class="hint">(never shown again)</span>
                </p>
                {!ro && (
                  <button type="button" class="secondary" onClick={() => set({ captcha: { ...d.captcha, keep: false, touched: true } })}>
                    Replace
                  </button>
                )}
              </div>
            ) : (
              <Field path="captcha.secret" label="Secret" errors={map} hint="Write-only.">
                {(a) => <input {...a} type="password" autoComplete="new-password" value={d.captcha.secret} disabled={ro} onInput={(e) => set({ captcha: { ...d.captcha, secret: e.currentTarget.value, touched: true } })} />}
              </Field>
            )}
            <Field path="captcha.verify_url" label="Verify URL (optional)" errors={map} hint="Empty: the provider's.">
              {(a) => <input {...a} value={d.captcha.verify_url} disabled={ro} onInput={(e) => set({ captcha: { ...d.captcha, verify_url: e.currentTarget.value, touched: true } })} />}
            </Field>
            <Field path="captcha.field" label="Token field (optional)" errors={map}>
              {(a) => <input {...a} value={d.captcha.field} disabled={ro} onInput={(e) => set({ captcha: { ...d.captcha, field: e.currentTarget.value, touched: true } })} />}
            </Field>
          </div>
        )}
      </fieldset>
      {!ro && (
        <div class="actions form-actions">
          <button type="button" class="secondary" onClick={() => (setD(draftOf(props.endpoint)), clear())}>
            Discard changes
          </button>
          <button type="submit">Save settings</button>
        </div>
      )}
    </form>
  );
}
