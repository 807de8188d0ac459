/**
 * The one shape of a save-time validation problem, shared by every validator (endpoint
 * settings, target configs, retry schedules) and returned as is in the management API's 400
 * `validation_failed` body (`errors: [{ field, message }]`). Field paths name the stored field
 * the way a form places a message: `body_filters[1].pattern`, `config.url`.
 */
export interface FieldError {
  field: string;
  message: string;
}

/** A validator's answer: the value to store, or every problem found (never only the first). */
export type Validation<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** Builds the answer once all checks ran, so every problem is reported at once. */
export function resultOf<T>(errors: FieldError[], value: () => T): Validation<T> {
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: value() };
}
