import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { fieldId } from '../lib/fields';
import type { ErrorMap } from '../lib/fields';
import { useFieldErrors } from './form-errors';

/**
 * A labelled control with the form's errors for it right under it, announced with the control
 * (components/form-errors.tsx places them). `errors` overrides the form's, for a form of one field.
 */
export function Field(props: {
  path: string;
  label: string;
  errors?: ErrorMap;
  hint?: string;
  children: (attrs: FieldAttrs) => ComponentChildren;
}) {
  const id = fieldId(props.path);
  const scoped = useFieldErrors(props.path, props.label);
  const messages = props.errors?.get(props.path) ?? scoped;
  const described = [props.hint ? `${id}-hint` : '', messages.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field${messages.length ? ' field--invalid' : ''}`}>
      <label for={id}>{props.label}</label>
      {props.children({
        id,
        'aria-invalid': messages.length > 0 ? 'true' : undefined,
        'aria-describedby': described || undefined,
      })}
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      {messages.length > 0 && (
        <p class="field-error" id={`${id}-error`} data-field-error={props.path}>
          {messages.join('; ')}
        </p>
      )}
    </div>
  );
}

export interface FieldAttrs {
  id: string;
  'aria-invalid': 'true' | undefined;
  'aria-describedby': string | undefined;
}

/** A checkbox that reads as an on/off switch. */
export function Switch(props: {
  id: string;
  label: string;
  checked: boolean;
  disabled?: boolean;
  describedBy?: string;
  onChange: (on: boolean) => void;
}) {
  return (
    <label class="switch" for={props.id}>
      <input
        id={props.id}
        type="checkbox"
        role="switch"
        checked={props.checked}
        disabled={props.disabled}
        aria-describedby={props.describedBy}
        onChange={(e) => {
          const box = e.currentTarget as HTMLInputElement;
          const on = box.checked;
          // the switch shows the stored state: it moves when the change is made (a confirmation may come first)
          box.checked = props.checked;
          props.onChange(on);
        }}
      />
      <span class="switch-track" aria-hidden="true" />
      <span>{props.label}</span>
    </label>
  );
}

export function CopyButton(props: { text: string; label: string }) {
  const [done, setDone] = useState(false);
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(props.text);
      setDone(true);
      setTimeout(() => setDone(false), 2000);
    } catch {
      // no clipboard (plain http on another host): the text is selectable next to the button
      setDone(false);
    }
  };
  return (
    <button type="button" class="secondary" onClick={() => void copy()} aria-label={props.label}>
      {done ? 'Copied' : 'Copy'}
    </button>
  );
}

/** A modal confirmation on the native <dialog>: focus moves in, Escape cancels, focus returns. */
export function Confirm(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // a page has several (disable, delete): each dialog is named by its own title
  const titleId = `confirm-${useId()}`;
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e: JSX.TargetedEvent<HTMLDialogElement>) => (e.preventDefault(), props.onCancel())}
    >
      <h2 id={titleId}>{props.title}</h2>
      <div>{props.children}</div>
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="button" class={props.danger ? 'danger' : ''} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/** Status messages for screen readers and eyes alike. */
export function Notice(props: { kind: 'ok' | 'error' | 'info'; children: ComponentChildren }) {
  return (
    <div class={`notice notice--${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

export function Loading(props: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {props.what}…
    </p>
  );
}
