import { Field } from '../../components/ui';
import { GroupError } from '../../components/form-errors';
import { INBOUND_AUTH_TYPES } from '../../lib/settings';
import { takesVerifyToken } from '../../lib/presets';
import { PresetPicker } from './PresetPicker';
import type { AuthDraft, SecretSlot } from '../../lib/settings';

const TYPE_LABELS: Record<string, string> = {
  NONE: 'None',
  BASIC: 'Basic',
  BEARER: 'Bearer token',
  API_KEY: 'API key header',
  HMAC: 'HMAC signature',
};
const LIST: Record<string, string> = { BEARER: 'tokens', API_KEY: 'keys', HMAC: 'secrets', BASIC: 'credentials' };

/** The error-path segment of a type (`inbound_auth.api_key.keys[0]`). */
export const authSegment = (type: string): string => `inbound_auth.${type.toLowerCase()}`;

/**
 * Inbound auth with write-only secrets: a stored secret shows as "set" (with its last four
 * characters when the API gives them) and can be kept, replaced or removed, never read. Up to
 * two slots, for the spec's rotation order.
 */
export function AuthEditor(props: { draft: AuthDraft; disabled: boolean; onChange: (d: AuthDraft) => void }) {
  const d = props.draft;
  const seg = authSegment(d.type);
  const change = (patch: Partial<AuthDraft>): void => props.onChange({ ...d, ...patch, touched: true });
  const setSlot = (i: number, patch: Partial<SecretSlot>): void =>
    change({ slots: d.slots.map((s, j) => (j === i ? { ...s, ...patch } : s)) });
  const setType = (type: string): void =>
    // a stored secret can only be kept under its own type
    change({
      type,
      slots:
        type === 'NONE'
          ? []
          : type === d.storedType && !d.touched
            ? d.slots
            : [{ keep: null, hint: '', value: '', username: '' }],
    });
  const secretPath = (i: number): string =>
    d.type === 'BASIC' ? `${seg}.credentials[${i}].password` : `${seg}.${LIST[d.type]}[${i}]`;

  return (
    <fieldset class="group">
      <legend>Inbound authentication</legend>
      <Field path="inbound_auth.type" label="Type">
        {(a) => (
          <select {...a} value={d.type} disabled={props.disabled} onChange={(e) => setType(e.currentTarget.value)}>
            {INBOUND_AUTH_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <GroupError path="inbound_auth" label="Inbound authentication" />
      {d.type === 'API_KEY' && (
        <Field path={`${seg}.header`} label="Header name">
          {(a) => (
            <input
              {...a}
              value={d.header}
              disabled={props.disabled}
              onInput={(e) => change({ header: e.currentTarget.value })}
              placeholder="X-API-Key"
            />
          )}
        </Field>
      )}
      {d.type === 'HMAC' && (
        <>
          <PresetPicker
            path={`${seg}.preset`}
            value={d.preset}
            disabled={props.disabled}
            onChange={(preset) => change({ preset })}
          />
          <Field path={`${seg}.dedup.enabled`} label="Deduplicate on the provider's delivery id">
            {(a) => (
              <select
                {...a}
                value={d.dedup}
                disabled={props.disabled}
                onChange={(e) => change({ dedup: e.currentTarget.value as AuthDraft['dedup'] })}
              >
                <option value="">Preset default (on when the provider sends an id)</option>
                <option value="on">On</option>
                <option value="off">Off</option>
              </select>
            )}
          </Field>
          <Field path={`${seg}.dedup.window_seconds`} label="Dedup window (seconds, optional; default 86400)">
            {(a) => (
              <input
                {...a}
                inputMode="numeric"
                value={d.dedupWindow}
                disabled={props.disabled}
                onInput={(e) => change({ dedupWindow: e.currentTarget.value })}
              />
            )}
          </Field>
          {takesVerifyToken(d.preset) && (
            <Field
              path={`${seg}.verify_token`}
              label="Verify token (Meta) / verification token (eBay)"

              hint={
                d.verifyTokenStored
                  ? 'One is stored (never shown). Type it again when you save a change to authentication, or it is removed.'
                  : "The hub.verify_token you give Meta, or the verification token you give eBay with the endpoint's URL."
              }
            >
              {(a) => (
                <input
                  {...a}
                  type="password"
                  autoComplete="new-password"
                  value={d.verifyToken}
                  disabled={props.disabled}
                  onInput={(e) => change({ verifyToken: e.currentTarget.value })}
                />
              )}
            </Field>
          )}
          <Field path={`${seg}.tolerance_seconds`} label="Replay window (seconds, optional)">
            {(a) => (
              <input
                {...a}
                inputMode="numeric"
                value={d.tolerance}
                disabled={props.disabled}
                onInput={(e) => change({ tolerance: e.currentTarget.value })}
              />
            )}
          </Field>
          {d.preset === 'custom' && (
            <Field
              path={`${seg}.custom`}
              label="Custom scheme (JSON)"
              hint='{"algorithm":"sha256","header":"X-Signature","encoding":"hex","template":"{{body}}"} — docs/inbound-auth.md'
            >
              {(a) => (
                <textarea
                  {...a}
                  rows={5}
                  value={d.custom}
                  disabled={props.disabled}
                  onInput={(e) => change({ custom: e.currentTarget.value })}
                />
              )}
            </Field>
          )}
        </>
      )}
      {LIST[d.type] && (
        <div class="slots">
          <GroupError path={`${seg}.${LIST[d.type]}`} label={d.type === 'BASIC' ? 'Credentials' : 'Secrets'} />
          {d.slots.map((s, i) => (
            <fieldset key={i} class="row-group">
              <legend>{d.type === 'BASIC' ? `Credential ${i + 1}` : `Secret ${i + 1}`}</legend>
              {d.type === 'BASIC' && (
                <Field path={`${seg}.credentials[${i}].username`} label={`Username ${i + 1}`}>
                  {(a) => (
                    <input
                      {...a}
                      value={s.username}
                      autoComplete="off"
                      disabled={props.disabled}
                      onInput={(e) => setSlot(i, { username: e.currentTarget.value })}
                    />
                  )}
                </Field>
              )}
              {s.keep !== null ? (
                <div class="field" data-field-error-anchor={secretPath(i)}>
                  <span class="label-like">{d.type === 'BASIC' ? 'Password' : 'Secret'}</span>
                  <p class="secret-set">
                    <span class="badge">set</span> {s.hint !== 'set' && <code>{s.hint}</code>}{' '}
                    <span class="hint">(never shown again)</span>
                  </p>
                  <GroupError
                    path={secretPath(i)}
                    label={d.type === 'BASIC' ? `Password ${i + 1}` : `Secret ${i + 1}`}
                  />
                  {!props.disabled && (
                    <button type="button" class="secondary" onClick={() => setSlot(i, { keep: null, value: '' })}>
                      Replace
                    </button>
                  )}
                </div>
              ) : (
                <Field
                  path={secretPath(i)}
                  label={d.type === 'BASIC' ? `Password ${i + 1}` : `New secret ${i + 1}`}
                  hint="Write-only: stored encrypted and never displayed after saving."
                >
                  {(a) => (
                    <input
                      {...a}
                      type="password"
                      autoComplete="new-password"
                      value={s.value}
                      disabled={props.disabled}
                      onInput={(e) => setSlot(i, { value: e.currentTarget.value })}
                    />
                  )}
                </Field>
              )}
              {!props.disabled && d.slots.length > 1 && (
                <button
                  type="button"
                  class="secondary"
                  onClick={() => change({ slots: d.slots.filter((_, j) => j !== i) })}
                >
                  Remove
                </button>
              )}
            </fieldset>
          ))}
          {!props.disabled && d.slots.length < 2 && (
            <button
              type="button"
              class="secondary"
              onClick={() =>
                change({
                  slots: [...d.slots, { keep: null, hint: '', value: '', username: d.slots[0]?.username ?? '' }],
                })
              }
            >
              Add a second {d.type === 'BASIC' ? 'credential' : 'secret'} (rotation)
            </button>
          )}
        </div>
      )}
    </fieldset>
  );
}
