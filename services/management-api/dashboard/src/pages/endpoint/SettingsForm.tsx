import { useEffect, useState } from 'preact/hooks';
import { must, relay } from '../../api';
import { Field, Notice } from '../../components/ui';
import { ErrorScope, ErrorSummary, GroupError, useFormErrors } from '../../components/form-errors';
import type { Abilities } from '../../lib/roles';
import {
  BODY_FILTER_KINDS,
  CAPTCHA_PROVIDERS,
  FIELD_TYPES,
  METHODS,
  PAYLOAD_FORMATS,
  PAYLOAD_FORMAT_LABELS,
  changedSettings,
  draftOf,
  settingsBody,
} from '../../lib/settings';
import type { SettingsDraft } from '../../lib/settings';
import type { Endpoint } from '@relay/client';
import { AuthEditor } from './AuthEditor';

/**
 * Every endpoint setting in one form. Saving sends only what changed (a PATCH replaces each
 * named setting whole); the API's validation messages come back per field path and are shown
 * at that field, or at the nearest part of the form that holds it.
 */
export function SettingsForm(props: { endpoint: Endpoint; can: Abilities; onSaved: (ep: Endpoint) => void }) {
  const [d, setD] = useState<SettingsDraft>(() => draftOf(props.endpoint));
  const form = useFormErrors();
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => setD(draftOf(props.endpoint)), [props.endpoint.revision]);
  const ro = !props.can.may('updateEndpoint');
  // an edit after a save: its confirmation no longer says how the form stands
  const set = (patch: Partial<SettingsDraft>): void => (setD({ ...d, ...patch }), setSaved(null));

  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    setSaved(null);
    const body = changedSettings(props.endpoint, settingsBody(d));
    if (Object.keys(body).length === 0) {
      setSaved('Nothing changed.');
      return;
    }
    try {
      const ep = await must(
        relay.PATCH('/v1/endpoints/{endpointId}', { params: { path: { endpointId: props.endpoint.id } }, body }),
      );
      form.clear();
      setSaved('Settings saved.');
      props.onSaved(ep);
    } catch (err) {
      form.fail(err);
    }
  };
  const rows = <K extends 'required_headers' | 'body_filters' | 'field_rules'>(
    k: K,
    i: number,
    patch: Partial<SettingsDraft[K][number]>,
  ): void =>
    set({
      [k]: (d[k] as Array<SettingsDraft[K][number]>).map((r, j) => (j === i ? { ...r, ...patch } : r)),
    } as Partial<SettingsDraft>);
  const drop = (k: 'required_headers' | 'body_filters' | 'field_rules', i: number): void =>
    set({ [k]: (d[k] as unknown[]).filter((_, j) => j !== i) } as Partial<SettingsDraft>);

  return (
    <ErrorScope form={form}>
      <form class="card settings" onSubmit={(e) => void save(e)} aria-labelledby="settings-title" noValidate>
        <h2 id="settings-title">Settings</h2>
        <ErrorSummary />
        <div class="grid">
          <Field path="name" label="Name">
            {(a) => <input {...a} value={d.name} disabled={ro} onInput={(e) => set({ name: e.currentTarget.value })} />}
          </Field>
          <Field
            path="rate_limit_per_minute"
            label="Rate limit (requests per minute)"
            hint="Empty: the default, 600 per minute."
          >
            {(a) => (
              <input
                {...a}
                inputMode="numeric"
                value={d.rate_limit}
                disabled={ro}
                onInput={(e) => set({ rate_limit: e.currentTarget.value })}
              />
            )}
          </Field>
        </div>
        <fieldset class="group">
          <legend>HTTP methods</legend>
          <GroupError path="methods" label="HTTP methods" />
          <div class="checks">
            {METHODS.map((m) => (
              <label key={m}>
                <input
                  type="checkbox"
                  checked={d.methods.includes(m)}
                  disabled={ro}
                  onChange={(e) =>
                    set({
                      methods: e.currentTarget.checked
                        ? METHODS.filter((x) => x === m || d.methods.includes(x))
                        : d.methods.filter((x) => x !== m),
                    })
                  }
                />{' '}
                {m}
              </label>
            ))}
          </div>
        </fieldset>
        <div class="grid">
          <Field path="payload_format" label="Payload format">
            {(a) => (
              <select
                {...a}
                value={d.payload_format}
                disabled={ro}
                onChange={(e) => set({ payload_format: e.currentTarget.value })}
              >
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
              <Field
                path="query_param_name"
                label="Query parameter name"
                hint="At most 255 characters; no spaces, control characters, # or ?."
              >
                {(a) => (
                  <input
                    {...a}
                    value={d.query_param_name}
                    disabled={ro}
                    onInput={(e) => set({ query_param_name: e.currentTarget.value })}
                  />
                )}
              </Field>
              <label class="check">
                <input
                  type="checkbox"
                  checked={d.query_param_required}
                  disabled={ro}
                  onChange={(e) => set({ query_param_required: e.currentTarget.checked })}
                />{' '}
                The parameter is required
              </label>
            </>
          )}
        </div>

        <AuthEditor draft={d.auth} disabled={ro} onChange={(auth) => set({ auth })} />

        <fieldset class="group">
          <legend>Required headers</legend>
          <GroupError path="required_headers" label="Required headers" />
          {d.required_headers.map((h, i) => (
            <div class="row" key={i}>
              <Field path={`required_headers[${i}].name`} label={`Header ${i + 1} name`}>
                {(a) => (
                  <input
                    {...a}
                    value={h.name}
                    disabled={ro}
                    onInput={(e) => rows('required_headers', i, { name: e.currentTarget.value })}
                  />
                )}
              </Field>
              <Field path={`required_headers[${i}].value`} label="Expected value (optional)">
                {(a) => (
                  <input
                    {...a}
                    value={h.value}
                    disabled={ro}
                    onInput={(e) => rows('required_headers', i, { value: e.currentTarget.value })}
                  />
                )}
              </Field>
              {!ro && (
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Remove header ${i + 1}`}
                  onClick={() => drop('required_headers', i)}
                >
                  Remove
                </button>
              )}
            </div>
          ))}
          {!ro && (
            <button
              type="button"
              class="secondary"
              onClick={() => set({ required_headers: [...d.required_headers, { name: '', value: '' }] })}
            >
              Add header
            </button>
          )}
        </fieldset>

        <fieldset class="group">
          <legend>Body filters</legend>
          <GroupError path="body_filters" label="Body filters" />
          {d.body_filters.map((f, i) => (
            <div class="row" key={i}>
              <GroupError path={`body_filters[${i}]`} label={`Filter ${i + 1}`} />
              <Field path={`body_filters[${i}].kind`} label={`Filter ${i + 1}`}>
                {(a) => (
                  <select
                    {...a}
                    value={f.kind}
                    disabled={ro}
                    onChange={(e) => rows('body_filters', i, { kind: e.currentTarget.value })}
                  >
                    {BODY_FILTER_KINDS.map((k) => (
                      <option key={k} value={k}>
                        {k.replace('_', ' ')}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field
                path={f.kind.endsWith('regex') ? `body_filters[${i}].pattern` : `body_filters[${i}].value`}
                label={f.kind.endsWith('regex') ? 'Pattern (RE2)' : 'Text'}
              >
                {(a) => (
                  <input
                    {...a}
                    value={f.text}
                    disabled={ro}
                    onInput={(e) => rows('body_filters', i, { text: e.currentTarget.value })}
                  />
                )}
              </Field>
              <label class="check">
                <input
                  type="checkbox"
                  checked={f.case_insensitive}
                  disabled={ro}
                  onChange={(e) => rows('body_filters', i, { case_insensitive: e.currentTarget.checked })}
                />{' '}
                Ignore case
              </label>
              {!ro && (
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Remove filter ${i + 1}`}
                  onClick={() => drop('body_filters', i)}
                >
                  Remove
                </button>
              )}
            </div>
          ))}
          {!ro && (
            <button
              type="button"
              class="secondary"
              onClick={() =>
                set({ body_filters: [...d.body_filters, { kind: 'contains', text: '', case_insensitive: false }] })
              }
            >
              Add filter
            </button>
          )}
        </fieldset>

        <fieldset class="group">
          <legend>Field validation rules</legend>
          <GroupError path="field_rules" label="Field validation rules" />
          {d.field_rules.map((r, i) => (
            <div class="row" key={i}>
              <GroupError path={`field_rules[${i}]`} label={`Rule ${i + 1}`} />
              <Field path={`field_rules[${i}].path`} label={`Rule ${i + 1} field path`}>
                {(a) => (
                  <input
                    {...a}
                    value={r.path}
                    placeholder="order.id"
                    disabled={ro}
                    onInput={(e) => rows('field_rules', i, { path: e.currentTarget.value })}
                  />
                )}
              </Field>
              <Field path={`field_rules[${i}].type`} label="Type">
                {(a) => (
                  <select
                    {...a}
                    value={r.type}
                    disabled={ro}
                    onChange={(e) => rows('field_rules', i, { type: e.currentTarget.value })}
                  >
                    <option value="">any</option>
                    {FIELD_TYPES.map((t) => (
                      <option key={t} value={t}>
                        {t}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field path={`field_rules[${i}].pattern`} label="Pattern (optional)">
                {(a) => (
                  <input
                    {...a}
                    value={r.pattern}
                    disabled={ro}
                    onInput={(e) => rows('field_rules', i, { pattern: e.currentTarget.value })}
                  />
                )}
              </Field>
              <label class="check">
                <input
                  type="checkbox"
                  checked={r.required}
                  disabled={ro}
                  onChange={(e) => rows('field_rules', i, { required: e.currentTarget.checked })}
                />{' '}
                Required
              </label>
              {!ro && (
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Remove rule ${i + 1}`}
                  onClick={() => drop('field_rules', i)}
                >
                  Remove
                </button>
              )}
            </div>
          ))}
          {!ro && (
            <button
              type="button"
              class="secondary"
              onClick={() =>
                set({ field_rules: [...d.field_rules, { path: '', type: '', required: true, pattern: '' }] })
              }
            >
              Add rule
            </button>
          )}
        </fieldset>

        <fieldset class="group">
          <legend>IP access</legend>
          <GroupError path="ip_access" label="IP access" />
          <div class="grid">
            <Field
              path="ip_access.allow"
              label="Allow (one address or CIDR range per line)"
              hint="Empty: every address."
            >
              {(a) => (
                <textarea
                  {...a}
                  rows={3}
                  value={d.ip_allow}
                  disabled={ro}
                  onInput={(e) => set({ ip_allow: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field path="ip_access.deny" label="Deny (one per line)">
              {(a) => (
                <textarea
                  {...a}
                  rows={3}
                  value={d.ip_deny}
                  disabled={ro}
                  onInput={(e) => set({ ip_deny: e.currentTarget.value })}
                />
              )}
            </Field>
          </div>
        </fieldset>

        <fieldset class="group">
          <legend>Captcha</legend>
          <GroupError path="captcha" label="Captcha" />
          <label class="check">
            <input
              type="checkbox"
              checked={d.captcha.on}
              disabled={ro}
              onChange={(e) => set({ captcha: { ...d.captcha, on: e.currentTarget.checked, touched: true } })}
            />{' '}
            Verify a captcha token in the body (JSON, form and XML only)
          </label>
          {d.captcha.on && (
            <div class="grid">
              <Field path="captcha.provider" label="Provider">
                {(a) => (
                  <select
                    {...a}
                    value={d.captcha.provider}
                    disabled={ro}
                    onChange={(e) =>
                      set({ captcha: { ...d.captcha, provider: e.currentTarget.value, keep: false, touched: true } })
                    }
                  >
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
                    <button
                      type="button"
                      class="secondary"
                      onClick={() => set({ captcha: { ...d.captcha, keep: false, touched: true } })}
                    >
                      Replace
                    </button>
                  )}
                </div>
              ) : (
                <Field path="captcha.secret" label="Secret" hint="Write-only.">
                  {(a) => (
                    <input
                      {...a}
                      type="password"
                      autoComplete="new-password"
                      value={d.captcha.secret}
                      disabled={ro}
                      onInput={(e) => set({ captcha: { ...d.captcha, secret: e.currentTarget.value, touched: true } })}
                    />
                  )}
                </Field>
              )}
              <Field path="captcha.verify_url" label="Verify URL (optional)" hint="Empty: the provider's.">
                {(a) => (
                  <input
                    {...a}
                    value={d.captcha.verify_url}
                    disabled={ro}
                    onInput={(e) =>
                      set({ captcha: { ...d.captcha, verify_url: e.currentTarget.value, touched: true } })
                    }
                  />
                )}
              </Field>
              <Field path="captcha.field" label="Token field (optional)">
                {(a) => (
                  <input
                    {...a}
                    value={d.captcha.field}
                    disabled={ro}
                    onInput={(e) => set({ captcha: { ...d.captcha, field: e.currentTarget.value, touched: true } })}
                  />
                )}
              </Field>
            </div>
          )}
        </fieldset>
        {!ro && (
          <div class="actions form-actions">
            <button type="button" class="secondary" onClick={() => (setD(draftOf(props.endpoint)), form.clear())}>
              Discard changes
            </button>
            <button type="submit">Save settings</button>
            {saved && <Notice kind="ok">{saved}</Notice>}
          </div>
        )}
      </form>
    </ErrorScope>
  );
}
