import type { SecretSealer } from '../kind';
import { isCredential, REDACTED } from './field';
import type { Field, Fields, KindDescription } from './field';

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A stored config as the management API shows it: only described settings, a setting a row
 * stored before it existed shown as its default, every credential as set (`[redacted]` or the
 * kind's mask) — never its value, never its ciphertext.
 */
export function viewDescribed(description: KindDescription, stored: Raw, secrets: SecretSealer): Raw {
  return viewObject(description.fields, stored, secrets);
}

function viewObject(fields: Fields, stored: Raw, secrets: SecretSealer): Raw {
  const out: Raw = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = stored[name] === undefined ? field.default : stored[name];
    if (value !== undefined) out[name] = viewField(field, value, stored, secrets);
  }
  return out;
}

function viewField(field: Field, value: unknown, siblings: Raw, secrets: SecretSealer): unknown {
  if (value === null) return null;
  if (isCredential(field, siblings))
    return field.mask && typeof value === 'string' ? field.mask(value, secrets) : REDACTED;
  if (field.type === 'object' && isObject(value)) return viewObject(field.fields, value, secrets);
  if (field.type === 'list' && Array.isArray(value))
    return value.map((item) => viewField(field.items, item, {}, secrets));
  if (field.type === 'variant' && isObject(value)) {
    const variant = field.variants.find((v) => v.value === value[field.tag]);
    return variant
      ? { [field.tag]: variant.value, ...viewObject(variant.fields, value, secrets) }
      : { [field.tag]: value[field.tag] };
  }
  return value;
}
