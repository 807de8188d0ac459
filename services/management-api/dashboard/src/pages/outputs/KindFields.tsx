import { useState } from 'preact/hooks';
import { Field } from '../../components/ui';
import { GroupError } from '../../components/form-errors';
import { isCredential, isHidden, isTriState, startItem, startObject } from '../../lib/kind-form';
import type { Value } from '../../lib/kind-form';
import type { TargetKindField } from '@relay/client';

/*
 * The controls of a kind's config, drawn from its description (`GET /v1/target-kinds`): a text,
 * a switch, a choice, a group, a list of rows or a variant with its own fields. Nothing here
 * knows a kind. A credential is a password box, write-only: an edit must type it again.
 */

interface Props {
  fields: TargetKindField[];
  value: Value;
  onChange: (value: Value) => void;
  /** the API path of this object, e.g. `config` or `config.custom_headers[2]` */
  path: string;
  /** the target is being edited: its stored credentials are set but unreadable */
  editing: boolean;
  /** prefixes each label (a row of a list: `Header 2`) */
  labelPrefix?: string;
}

export function KindFields(props: Props) {
  const set = (name: string, v: unknown): void => props.onChange({ ...props.value, [name]: v });
  return (
    <>
      {props.fields
        .filter((f) => !isHidden(f))
        .map((f) => (
          <FieldControl
            key={f.name}
            field={f}
            value={props.value[f.name]}
            siblings={props.value}
            onChange={(v) => set(f.name, v)}
            path={props.path === '' ? f.name : `${props.path}.${f.name}`}
            editing={props.editing}
            labelPrefix={props.labelPrefix}
          />
        ))}
    </>
  );
}

interface ControlProps {
  field: TargetKindField;
  value: unknown;
  siblings: Value;
  onChange: (v: unknown) => void;
  path: string;
  editing: boolean;
  labelPrefix?: string;
}

function hintOf(f: TargetKindField, credential: boolean, editing: boolean): string | undefined {
  if (credential)
    return editing
      ? 'Write-only: it is set but never shown. Enter it again to save a changed configuration.'
      : `Write-only: never displayed after saving.${f.help ? ` ${f.help}` : ''}`;
  return f.help;
}

/**
 * A one-line box drops the line breaks of pasted or dropped text without a word, and would save
 * the joined text. Where the description's pattern refuses what was pasted, the paste is
 * refused instead, with the API's own message (`pattern_message`), before anything is sent.
 */
function refusedPaste(f: TargetKindField, box: HTMLInputElement, text: string): string | null {
  if (!/[\r\n]/.test(text) || f.pattern === undefined) return null;
  const next =
    box.value.slice(0, box.selectionStart ?? box.value.length) +
    text +
    box.value.slice(box.selectionEnd ?? box.value.length);
  return new RegExp(f.pattern, 'u').test(next) ? null : (f.pattern_message ?? `${f.label}: not of the expected form`);
}

function FieldControl(p: ControlProps) {
  const f = p.field;
  // a paste the description refuses: said at the field until the next edit
  const [refused, setRefused] = useState<string | null>(null);
  const label = p.labelPrefix ? `${p.labelPrefix} ${f.label.toLowerCase()}` : f.label;
  const credential = isCredential(f, p.siblings);
  const hint = hintOf(f, credential, p.editing);
  const placeholder = f.example !== undefined && typeof f.example !== 'object' ? String(f.example) : undefined;
  switch (f.type) {
    case 'string': {
      const guard = (e: Event, text: string): void => {
        const problem = refusedPaste(f, e.currentTarget as HTMLInputElement, text);
        if (problem) e.preventDefault();
        setRefused(problem);
      };
      return (
        <Field path={p.path} label={label} hint={hint} errors={refused ? new Map([[p.path, [refused]]]) : undefined}>
          {(a) =>
            f.multiline && credential ? (
              // a multi-line credential (a key file): masked as typed, like a password field — a
              // textarea cannot be type=password, and one line would lose a PEM key's line breaks
              <textarea
                {...a}
                class="secret"
                rows={3}
                spellcheck={false}
                autoComplete="off"
                autoCorrect="off"
                autoCapitalize="off"
                value={String(p.value ?? '')}
                onInput={(e) => p.onChange(e.currentTarget.value)}
              />
            ) : f.multiline ? (
              <textarea
                {...a}
                rows={3}
                value={String(p.value ?? '')}
                placeholder={placeholder}
                onInput={(e) => p.onChange(e.currentTarget.value)}
              />
            ) : (
              <input
                {...a}
                type={credential ? 'password' : f.format === 'email' ? 'email' : 'text'}
                autoComplete={credential ? 'new-password' : 'off'}
                value={String(p.value ?? '')}
                placeholder={placeholder}
                onInput={(e) => (setRefused(null), p.onChange(e.currentTarget.value))}
                onPaste={(e) => guard(e, e.clipboardData?.getData('text') ?? '')}
                onDrop={(e) => guard(e, e.dataTransfer?.getData('text') ?? '')}
              />
            )
          }
        </Field>
      );
    }
    case 'integer':
    case 'number':
      return (
        <Field path={p.path} label={label} hint={hint}>
          {(a) => (
            <input
              {...a}
              type="number"
              step={f.type === 'number' ? 'any' : undefined}
              min={f.minimum}
              max={f.maximum}
              value={p.value === undefined || p.value === null ? '' : String(p.value)}
              onInput={(e) => p.onChange(e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value))}
            />
          )}
        </Field>
      );
    case 'boolean':
      if (isTriState(f)) {
        return (
          <Field path={p.path} label={label} hint={hint}>
            {(a) => (
              <select
                {...a}
                value={p.value === true ? 'on' : p.value === false ? 'off' : ''}
                onChange={(e) => p.onChange(e.currentTarget.value === '' ? undefined : e.currentTarget.value === 'on')}
              >
                <option value="">unset</option>
                <option value="on">on</option>
                <option value="off">off</option>
              </select>
            )}
          </Field>
        );
      }
      return (
        <label class="check" title={hint}>
          <input type="checkbox" checked={p.value === true} onChange={(e) => p.onChange(e.currentTarget.checked)} />{' '}
          {label}
        </label>
      );
    case 'enum':
      return (
        <Field path={p.path} label={label} hint={hint}>
          {(a) => (
            <select {...a} value={String(p.value ?? '')} onChange={(e) => p.onChange(e.currentTarget.value)}>
              {!f.required && f.default === undefined && <option value="">unset</option>}
              {f.values?.map((v) => (
                <option key={v.value} value={v.value}>
                  {v.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      );
    case 'object':
      return <ObjectControl {...p} />;
    case 'variant':
      return <VariantControl {...p} />;
    case 'list':
      return f.items?.type === 'object' || f.items?.type === 'variant' ? (
        <RowsControl {...p} />
      ) : (
        <LinesControl {...p} />
      );
  }
}

/** A group; an optional one (default null, e.g. signing) is switched on before its fields show. */
function ObjectControl(p: ControlProps) {
  const f = p.field;
  const value = (p.value ?? null) as Value | null;
  const optional = f.default === null;
  return (
    <fieldset class="group">
      <legend>{f.label}</legend>
      {f.help && <p class="hint">{f.help}</p>}
      <GroupError path={p.path} label={p.labelPrefix ? `${p.labelPrefix} ${f.label.toLowerCase()}` : f.label} />
      {optional && (
        <label class="check">
          <input
            type="checkbox"
            checked={value !== null}
            onChange={(e) => p.onChange(e.currentTarget.checked ? startObject(f.fields ?? [], undefined) : null)}
          />{' '}
          {`Use ${f.label.charAt(0).toLowerCase()}${f.label.slice(1)}`}
        </label>
      )}
      {value !== null && (
        <div class="grid">
          <KindFields fields={f.fields ?? []} value={value} onChange={p.onChange} path={p.path} editing={p.editing} />
        </div>
      )}
    </fieldset>
  );
}

/** A choice of shape (`type`, `mode`) and the fields of the chosen one. */
function VariantControl(p: ControlProps) {
  const f = p.field;
  const tag = f.tag!;
  const value = (p.value ?? {}) as Value;
  const variant = f.variants?.find((v) => v.value === value[tag]) ?? f.variants?.[0];
  return (
    <fieldset class="group">
      <legend>{f.label}</legend>
      <div class="grid">
        <Field path={`${p.path}.${tag}`} label={f.label} hint={f.help}>
          {(a) => (
            <select
              {...a}
              value={String(variant?.value ?? '')}
              onChange={(e) => p.onChange({ ...value, [tag]: e.currentTarget.value })}
            >
              {f.variants?.map((v) => (
                <option key={v.value} value={v.value}>
                  {v.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <KindFields
          fields={variant?.fields ?? []}
          value={value}
          onChange={p.onChange}
          path={p.path}
          editing={p.editing}
          labelPrefix={p.labelPrefix}
        />
      </div>
    </fieldset>
  );
}

/** A list of values, one per line (header names, email addresses). */
function LinesControl(p: ControlProps) {
  const f = p.field;
  const lines = Array.isArray(p.value) ? (p.value as unknown[]).map(String) : [];
  const toItem = (s: string): unknown => (f.items?.type === 'integer' ? Number(s) : s);
  return (
    <Field path={p.path} label={`${f.label} (one per line)`} hint={f.help}>
      {(a) => (
        <textarea
          {...a}
          rows={3}
          value={lines.join('\n')}
          onInput={(e) =>
            p.onChange(
              e.currentTarget.value
                .split(/\n/)
                .map((s) => s.trim())
                .filter(Boolean)
                .map(toItem),
            )
          }
        />
      )}
    </Field>
  );
}

/** A list of rows (custom headers), each the item's fields, added and removed one by one. */
function RowsControl(p: ControlProps) {
  const f = p.field;
  const item = f.items!;
  const rows = (Array.isArray(p.value) ? p.value : []) as Value[];
  const max = f.max_items ?? Infinity;
  return (
    <fieldset class="group">
      <legend>{f.label}</legend>
      <GroupError path={p.path} label={p.labelPrefix ? `${p.labelPrefix} ${f.label.toLowerCase()}` : f.label} />
      {rows.map((row, i) => (
        <div class="row" key={i}>
          {item.type === 'variant' ? (
            <FieldControl
              field={{ ...item, label: `${item.label} ${i + 1}` }}
              value={row}
              siblings={{}}
              onChange={(v) => p.onChange(rows.map((r, j) => (j === i ? (v as Value) : r)))}
              path={`${p.path}[${i}]`}
              editing={p.editing}
              labelPrefix={`${item.label} ${i + 1}`}
            />
          ) : (
            <KindFields
              fields={item.fields ?? []}
              value={row}
              onChange={(v) => p.onChange(rows.map((r, j) => (j === i ? v : r)))}
              path={`${p.path}[${i}]`}
              editing={p.editing}
              labelPrefix={`${item.label} ${i + 1}`}
            />
          )}
          <button
            type="button"
            class="secondary"
            aria-label={`Remove ${item.label.toLowerCase()} ${i + 1}`}
            onClick={() => p.onChange(rows.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      {rows.length < max && (
        <button type="button" class="secondary" onClick={() => p.onChange([...rows, startItem(item)])}>
          {`Add ${item.label.toLowerCase()}`}
        </button>
      )}
    </fieldset>
  );
}
