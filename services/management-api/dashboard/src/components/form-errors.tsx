import { createContext } from 'preact';
import type { ComponentChildren } from 'preact';
import { useContext, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { RelayApiError, messageOf } from '../api';
import { fieldFor, fieldId, pathWords } from '../lib/fields';
import type { FieldError } from '../lib/fields';

/*
 * One way of showing what the API refused of a form, for every form. The API
 * names each problem by its field path (`config.custom_headers[0].name`); every labelled control
 * (`Field`, `GroupError`) registers its path and label with the form's scope, and each problem is
 * shown at the control of its path — or of the nearest enclosing path the form has — and listed
 * in the summary by that control's label, a link to it. A person never reads an API path.
 */

export interface FormErrors {
  errors: FieldError[];
  message: string | null;
  /** a save failed: its field errors and a summary (a failure without field errors: its message) */
  fail(err: unknown, summary?: string): void;
  clear(): void;
}

export function useFormErrors(): FormErrors {
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  return {
    errors,
    message,
    fail(err: unknown, summary?: string): void {
      const fields = err instanceof RelayApiError ? err.errors : [];
      setErrors(fields);
      setMessage(
        summary ??
          (fields.length
            ? `Not saved: ${fields.length} problem${fields.length > 1 ? 's' : ''}, shown at ${fields.length > 1 ? 'their fields' : 'its field'}.`
            : messageOf(err)),
      );
    },
    clear(): void {
      setErrors([]);
      setMessage(null);
    },
  };
}

interface Placed extends FieldError {
  /** the control that shows it: its path, or null when the form has none for it */
  at: string | null;
}

interface Scope {
  form: FormErrors;
  placed: Placed[];
  labels: Map<string, string>;
}

const ScopeContext = createContext<Scope | null>(null);

/** Around a form: its controls show the form's errors, its summary lists them by label. */
export function ErrorScope(props: { form: FormErrors; children: ComponentChildren }) {
  const labels = useRef(new Map<string, string>()).current;
  const known = new Set(labels.keys());
  const placed = props.form.errors.map((e) => ({ ...e, at: fieldFor(e.field, known) }));
  return <ScopeContext.Provider value={{ form: props.form, placed, labels }}>{props.children}</ScopeContext.Provider>;
}

/**
 * A control's part in the scope: registers its path and label while shown, and returns the
 * messages placed at it (none outside a scope).
 */
export function useFieldErrors(path: string, label: string): string[] {
  const scope = useContext(ScopeContext);
  useLayoutEffect(() => {
    if (!scope) return undefined;
    scope.labels.set(path, label);
    return () => {
      if (scope.labels.get(path) === label) scope.labels.delete(path);
    };
  }, [scope?.labels, path, label]);
  return scope ? scope.placed.filter((e) => e.at === path).map((e) => e.message) : [];
}

/** A group's own problem (`methods`, `config.custom_headers`): under its legend, as a field's. */
export function GroupError(props: { path: string; label: string }) {
  const messages = useFieldErrors(props.path, props.label);
  return (
    <span id={fieldId(props.path)} tabIndex={-1}>
      {messages.length > 0 && (
        <p class="field-error" id={`${fieldId(props.path)}-error`} data-field-error={props.path}>
          {messages.join('; ')}
        </p>
      )}
    </span>
  );
}

/**
 * The form's summary: the message, then every problem by the label of the control that shows
 * it (a link that moves focus there). Focus moves to the summary when a save fails.
 */
export function ErrorSummary() {
  const scope = useContext(ScopeContext);
  const ref = useRef<HTMLDivElement>(null);
  const message = scope?.form.message ?? null;
  useEffect(() => {
    if (message) ref.current?.focus();
  }, [message, scope?.form.errors]);
  if (!scope || !message) return null;
  const focus = (path: string) => (): void => document.getElementById(fieldId(path))?.focus();
  return (
    <div class="error-summary" role="alert" tabIndex={-1} ref={ref}>
      <p>{message}</p>
      {scope.placed.length > 0 && (
        <ul>
          {scope.placed.map((e, i) => (
            <li key={`${i}${e.field}`}>
              {e.at !== null ? (
                <button type="button" class="link" onClick={focus(e.at)}>
                  {scope.labels.get(e.at)}
                </button>
              ) : (
                <strong>{pathWords(e.field)}</strong>
              )}
              : {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
