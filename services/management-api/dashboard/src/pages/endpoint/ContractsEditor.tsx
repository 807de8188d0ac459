import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../../api';
import { CodeEditor } from '../../components/editor';
import { Field, Notice } from '../../components/ui';
import { ErrorScope, ErrorSummary, GroupError, useFormErrors } from '../../components/form-errors';
import type { Abilities } from '../../lib/roles';
import type { Endpoint } from '@relay/client';

type Contracts = NonNullable<Endpoint['contracts']>;

interface Draft {
  on: boolean;
  from: 'path' | 'header';
  key: string;
  mode: 'refuse' | 'mark';
  schemas: Array<{ event_type: string; schema: string }>;
}

const draftOf = (c: Endpoint['contracts']): Draft =>
  c
    ? {
        on: true,
        from: c.event_type.from,
        key: c.event_type.from === 'path' ? c.event_type.path : c.event_type.header,
        mode: c.mode,
        schemas: c.schemas.map((s) => ({ ...s })),
      }
    : {
        on: false,
        from: 'path',
        key: 'type',
        mode: 'refuse',
        schemas: [{ event_type: '*', schema: '{\n  "type": "object"\n}' }],
      };

const contractsOf = (d: Draft): Contracts => ({
  event_type: d.from === 'path' ? { from: 'path', path: d.key } : { from: 'header', header: d.key },
  mode: d.mode,
  schemas: d.schemas,
});

/**
 * Payload contracts (docs/contracts.md): JSON Schemas per event type, written in the code editor
 * (decision 0024), saved as the endpoint's `contracts`; "Check payload" runs the draft on a
 * payload with `POST /v1/endpoints/:id/validate`, delivering nothing.
 */
export function ContractsEditor(props: { endpoint: Endpoint; can: Abilities; onSaved: (ep: Endpoint) => void }) {
  const [d, setD] = useState<Draft>(() => draftOf(props.endpoint.contracts));
  const [payload, setPayload] = useState('{\n  "type": "order.created"\n}');
  const [checked, setChecked] = useState<{ ok: boolean; lines: string[] } | null>(null);
  const [saved, setSaved] = useState(false);
  const form = useFormErrors();
  const editable = props.can.may('updateEndpoint');
  useEffect(() => setD(draftOf(props.endpoint.contracts)), [props.endpoint.revision]);
  const set = (patch: Partial<Draft>): void => (setD({ ...d, ...patch }), setSaved(false));
  const setSchema = (i: number, patch: Partial<Draft['schemas'][number]>): void =>
    set({ schemas: d.schemas.map((s, j) => (j === i ? { ...s, ...patch } : s)) });

  const save = async (e: Event): Promise<void> => {
    e.preventDefault();
    try {
      const body = { contracts: d.on ? contractsOf(d) : null };
      props.onSaved(
        await must(
          relay.PATCH('/v1/endpoints/{endpointId}', { params: { path: { endpointId: props.endpoint.id } }, body }),
        ),
      );
      form.clear();
      setSaved(true);
    } catch (err) {
      form.fail(err);
    }
  };

  const check = async (): Promise<void> => {
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch (err) {
      setChecked({ ok: false, lines: [`The payload is not JSON: ${messageOf(err)}`] });
      return;
    }
    try {
      const r = await must(
        relay.POST('/v1/endpoints/{endpointId}/validate', {
          params: { path: { endpointId: props.endpoint.id } },
          body: { body, contracts: contractsOf(d) },
        }),
      );
      form.clear();
      const which = r.schema === null ? 'No schema applies' : `Schema “${r.schema}”`;
      setChecked(
        r.valid
          ? { ok: true, lines: [`${which}: the payload passes.`] }
          : {
              ok: false,
              lines: [
                `${which}: the payload fails.`,
                ...r.errors.map((x) => `${x.path} ${x.message}`),
                ...(r.truncated ? ['(more errors not listed)'] : []),
              ],
            },
      );
    } catch (err) {
      setChecked(null);
      form.fail(err);
    }
  };

  return (
    <ErrorScope form={form}>
      <form class="card" onSubmit={(e) => void save(e)} aria-labelledby="contracts-title">
        <h2 id="contracts-title">Payload contracts</h2>
        <p class="hint">
          A JSON Schema (2020-12) per event type; <code>*</code> for any other. Patterns use RE2 syntax.
        </p>
        <ErrorSummary />
        <label>
          <input
            type="checkbox"
            checked={d.on}
            disabled={!editable}
            onChange={(e) => set({ on: e.currentTarget.checked })}
          />{' '}
          Check payloads against contracts
        </label>
        {d.on && (
          <>
            <GroupError path="contracts" label="Contracts" />
            <Field path="contracts.event_type" label="Event type from">
              {(a) => (
                <select
                  {...a}
                  value={d.from}
                  disabled={!editable}
                  onChange={(e) => set({ from: e.currentTarget.value as Draft['from'] })}
                >
                  <option value="path">payload field</option>
                  <option value="header">request header</option>
                </select>
              )}
            </Field>
            <Field
              path={d.from === 'path' ? 'contracts.event_type.path' : 'contracts.event_type.header'}
              label={d.from === 'path' ? 'Event type field path' : 'Event type header'}
            >
              {(a) => (
                <input {...a} value={d.key} disabled={!editable} onInput={(e) => set({ key: e.currentTarget.value })} />
              )}
            </Field>
            <Field path="contracts.mode" label="A failing payload is">
              {(a) => (
                <select
                  {...a}
                  value={d.mode}
                  disabled={!editable}
                  onChange={(e) => set({ mode: e.currentTarget.value as Draft['mode'] })}
                >
                  <option value="refuse">refused (400 contract_violation)</option>
                  <option value="mark">accepted and marked</option>
                </select>
              )}
            </Field>
            <GroupError path="contracts.schemas" label="Schemas" />
            {d.schemas.map((s, i) => (
              <fieldset key={i} class="row-group">
                <legend>Schema {i + 1}</legend>
                <Field path={`contracts.schemas[${i}].event_type`} label={`Schema ${i + 1} event type`}>
                  {(a) => (
                    <input
                      {...a}
                      value={s.event_type}
                      disabled={!editable}
                      onInput={(e) => setSchema(i, { event_type: e.currentTarget.value })}
                    />
                  )}
                </Field>
                <GroupError path={`contracts.schemas[${i}].schema`} label={`Schema ${i + 1} JSON Schema`} />
                <CodeEditor
                  value={s.schema}
                  label={`Schema ${i + 1} JSON Schema`}
                  readOnly={!editable}
                  onChange={(text) => setSchema(i, { schema: text })}
                />
                {editable && d.schemas.length > 1 && (
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`Remove schema ${i + 1}`}
                    onClick={() => set({ schemas: d.schemas.filter((_, j) => j !== i) })}
                  >
                    Remove
                  </button>
                )}
              </fieldset>
            ))}
            {editable && (
              <button
                type="button"
                class="secondary"
                onClick={() => set({ schemas: [...d.schemas, { event_type: '', schema: '{}' }] })}
              >
                Add schema
              </button>
            )}
            <fieldset class="row-group">
              <legend>Try a payload</legend>
              <Field path="body" label="Payload (JSON)">
                {(a) => <textarea {...a} rows={5} value={payload} onInput={(e) => setPayload(e.currentTarget.value)} />}
              </Field>
              <button type="button" class="secondary" onClick={() => void check()}>
                Check payload
              </button>
              {checked && (
                <div role="status" class={checked.ok ? 'ok-text' : 'error-text'}>
                  {checked.lines.map((l, i) => (
                    <p key={i}>{l}</p>
                  ))}
                </div>
              )}
            </fieldset>
          </>
        )}
        {editable && (
          <div class="actions">
            <button type="submit">Save contracts</button>
            {saved && <Notice kind="ok">Contracts saved.</Notice>}
          </div>
        )}
      </form>
    </ErrorScope>
  );
}
