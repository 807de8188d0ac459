import type { FieldError, Validation } from '@relay/contracts';

/*
 * Pieces every input module of the API shares (endpoint-input.ts, target-input.ts): a request
 * body is checked field by field, each field by its own validator, and every problem is
 * reported at once in the shared `FieldError` shape.
 */

export const ok = <T>(value: T): Validation<T> => ({ ok: true, value });
export const fail = <T>(field: string, message: string): Validation<T> => ({ ok: false, errors: [{ field, message }] });
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function bool(field: string): (raw: unknown) => Validation<boolean> {
  return (raw) => (typeof raw === 'boolean' ? ok(raw) : fail(field, 'must be true or false'));
}

/** The display name of an endpoint or a target, stored trimmed. */
export function validateName(raw: unknown): Validation<string> {
  return typeof raw === 'string' && raw.trim().length > 0 && raw.length <= 200
    ? ok(raw.trim())
    : fail('name', 'Enter a name of at most 200 characters.');
}

/**
 * Refuses, by name, fields a body may not carry: read-only response fields a client sent back
 * (GET → edit → PATCH), fields `refusedHere` names with its own reason, and anything unknown.
 */
export function fieldNameErrors(
  input: Record<string, unknown>,
  writable: readonly string[],
  readOnly: ReadonlySet<string>,
  refusedHere: Readonly<Record<string, string>> = {},
): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of Object.keys(input)) {
    if (readOnly.has(key)) errors.push({ field: key, message: 'is read-only' });
    else if (Object.hasOwn(refusedHere, key)) errors.push({ field: key, message: refusedHere[key]! });
    else if (!writable.includes(key)) errors.push({ field: key, message: 'is not a known field' });
  }
  return errors;
}
