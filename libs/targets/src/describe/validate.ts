import type { FieldError, Validation } from '@relay/contracts';
import type { SecretSealer } from '../kind';
import { isCredential } from './field';
import type { Field, Fields, KindDescription } from './field';

type Fail = (path: string, message: string) => void;
type Raw = Record<string, unknown>;

const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
/** `"a", "b" or "c"` */
const quoted = (values: readonly string[]): string => {
  const q = values.map((v) => `"${v}"`);
  return q.length > 1 ? `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}` : (q[0] ?? '');
};
// a mailbox without display name: enough to refuse what no relay would accept (RFC 5321 limits)
const EMAIL =
  /^[^\s@<>()[\]\\,;:"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

interface Walk {
  root: Raw;
  fail: Fail;
}

/** The settings of one object: unknown ones refused by name, each described one read in order. */
function readObject(fields: Fields, raw: Raw, path: string, walk: Walk, skip: readonly string[] = []): Raw {
  // an unknown setting is refused by name, never dropped silently: a misspelt one would be saved as its default
  for (const key of Object.keys(raw))
    if (!(key in fields) && !skip.includes(key)) walk.fail(`${path}.${key}`, 'unknown setting');
  const out: Raw = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = readField(field, raw[name], `${path}.${name}`, name, walk);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** One value: missing/default, the described checks, then the field's own hook. */
function readField(field: Field, sent: unknown, path: string, name: string, walk: Walk, index?: number): unknown {
  const value = field.type === 'string' && field.trim && typeof sent === 'string' ? sent.trim() : sent;
  if (value === undefined || value === null) {
    if (field.required) walk.fail(path, field.requiredMessage ?? `${name} is required`);
    return field.default === undefined ? undefined : structuredClone(field.default);
  }
  let problems = 0;
  const fail: Fail = (p, m) => (problems++, walk.fail(p, m));
  const out = readTyped(field, value, path, name, { ...walk, fail });
  // the hook sees only a value of the described shape (its children may still have problems)
  if (problems > 0 || out === undefined || !field.check) return out;
  const checked = field.check(out, {
    config: walk.root,
    path,
    index,
    fail: (message, at = path) => walk.fail(at, message),
  });
  return checked === undefined ? out : checked;
}

function readTyped(field: Field, value: unknown, path: string, name: string, walk: Walk): unknown {
  const fail = (message: string): undefined => (walk.fail(path, message), undefined);
  switch (field.type) {
    case 'string': {
      const bad = (m: string): undefined => fail(field.message ?? m);
      if (typeof value !== 'string') return bad(`${name} must be a string`);
      if (field.minLength !== undefined && value.length < field.minLength)
        return bad(`${name} must be at least ${field.minLength} characters`);
      if (field.maxLength !== undefined && value.length > field.maxLength)
        return bad(`${name} must be at most ${field.maxLength} characters`);
      if (field.pattern !== undefined && !new RegExp(field.pattern, 'u').test(value))
        return fail(field.patternMessage ?? field.message ?? `${name} is not of the expected form`);
      if (field.format === 'email' && !EMAIL.test(value)) return bad(`${name} must be an email address`);
      return value;
    }
    case 'boolean':
      if (typeof value !== 'boolean' || (field.const !== undefined && value !== field.const))
        return fail(field.message ?? `${name} must be true or false`);
      return value;
    case 'integer': {
      const min = field.minimum ?? Number.MIN_SAFE_INTEGER;
      const max = field.maximum ?? Number.MAX_SAFE_INTEGER;
      if (!Number.isInteger(value) || (value as number) < min || (value as number) > max)
        return fail(field.message ?? `${name} must be an integer from ${min} to ${max}`);
      return value;
    }
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        return fail(field.message ?? `${name} must be a number`);
      return value;
    case 'enum':
      if (typeof value !== 'string' || !field.values.some((v) => v.value === value))
        return fail(`must be ${quoted(field.values.map((v) => v.value))}`);
      return value;
    case 'object':
      if (!isObject(value)) return fail(field.message ?? 'must be an object');
      return readObject(field.fields, value, path, walk);
    case 'list': {
      if (!Array.isArray(value)) return fail(field.message ?? 'must be a list');
      const max = field.maxItems ?? Infinity;
      if (value.length > max)
        walk.fail(
          path,
          (field.maxItemsMessage ?? `at most {max} items (got {got})`)
            .replace('{max}', String(max))
            .replace('{got}', String(value.length)),
        );
      const items = value.slice(0, max).map((item, i) => readField(field.items, item, `${path}[${i}]`, name, walk, i));
      return items.filter((item) => item !== undefined);
    }
    case 'variant': {
      if (!isObject(value)) return fail(field.message ?? `must be an object with a ${field.tag}`);
      const variant = field.variants.find((v) => v.value === value[field.tag]);
      if (!variant)
        return (walk.fail(`${path}.${field.tag}`, `must be ${quoted(field.variants.map((v) => v.value))}`), undefined);
      return { [field.tag]: variant.value, ...readObject(variant.fields, value, path, walk, [field.tag]) };
    }
  }
}

/** Every credential of a checked config sealed, wherever the description marks one. */
export function sealCredentials(fields: Fields, value: Raw, secrets: SecretSealer): Raw {
  const out: Raw = { ...value };
  for (const [name, field] of Object.entries(fields)) {
    if (out[name] !== undefined && out[name] !== null) out[name] = sealField(field, out[name], value, secrets);
  }
  return out;
}

function sealField(field: Field, value: unknown, siblings: Raw, secrets: SecretSealer): unknown {
  if (typeof value === 'string') return isCredential(field, siblings) ? secrets.encrypt(value) : value;
  if (field.type === 'object' && isObject(value)) return sealCredentials(field.fields, value, secrets);
  if (field.type === 'list' && Array.isArray(value))
    return value.map((item) => sealField(field.items, item, {}, secrets));
  if (field.type === 'variant' && isObject(value)) {
    const variant = field.variants.find((v) => v.value === value[field.tag]);
    return variant ? sealCredentials(variant.fields, value, secrets) : value;
  }
  return value;
}

/**
 * Save-time validation from a kind's description: every problem reported at its field path
 * (`config.custom_headers[3].name`), unknown settings refused by name, defaults applied, then
 * every credential sealed by `secrets`. Returns the config to store.
 */
export function validateDescribed<C>(
  description: KindDescription,
  input: unknown,
  secrets: SecretSealer,
): Validation<C> {
  const checked = checkDescribed(description, input);
  return checked.ok ? { ok: true, value: sealCredentials(description.fields, checked.value, secrets) as C } : checked;
}

/** The described checks alone, nothing sealed: the config normalised, or every problem. */
export function checkDescribed(description: KindDescription, input: unknown): Validation<Raw> {
  if (!isObject(input)) return { ok: false, errors: [{ field: 'config', message: 'config must be an object' }] };
  const errors: FieldError[] = [];
  const value = readObject(description.fields, input, 'config', {
    root: input,
    fail: (field, message) => void errors.push({ field, message }),
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value };
}

/**
 * One described value outside a config — a target's own settings (TARGET_FIELDS: its name, its
 * retry schedule) — checked the same way, each problem at `path` (`retry_schedule_ms[2]`).
 */
export function checkField<T = unknown>(field: Field, input: unknown, path: string): Validation<T> {
  const errors: FieldError[] = [];
  const value = readField(field, input, path, path, {
    root: {},
    fail: (at, message) => void errors.push({ field: at, message }),
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: value as T };
}
