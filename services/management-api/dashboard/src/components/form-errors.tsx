import { useState } from 'preact/hooks';
import { RelayApiError, messageOf } from '../api';
import type { FieldError } from '../lib/fields';

/**
 * What the API refused of a form: the field errors to place at their fields and the message for
 * the form's summary. `fail` takes the error a save threw (a RelayApiError carries the field errors;
 * anything else only a message), `clear` forgets both after a save went through.
 */
export function useFormErrors() {
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  return {
    errors,
    message,
    fail(err: unknown, summary: string = messageOf(err)): void {
      setErrors(err instanceof RelayApiError ? err.errors : []);
      setMessage(summary);
    },
    clear(): void {
      setErrors([]);
      setMessage(null);
    },
  };
}
