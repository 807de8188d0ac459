import type { TargetKindField } from '@relay/client';

/*
 * A kind's config as the target form holds it, derived from the kind's description: the value
 * a new form starts from, the value an edit starts from (write-only credentials blank), what a
 * save sends, and every field path the form shows (to place the API's errors).
 */

export type Value = Record<string, unknown>;
const isObject = (v: unknown): v is Value => typeof v === 'object' && v !== null && !Array.isArray(v);

export const isCredential = (f: TargetKindField, siblings: Value): boolean =>
  f.credential === true || (typeof f.credential === 'object' && siblings[f.credential.when] === true);
/** A boolean with no default that may be left unset: shown as unset / on / off. */
export const isTriState = (f: TargetKindField): boolean =>
  f.type === 'boolean' && f.default === undefined && !f.required;
/** A field the form does not ask for: the target's own (its name), or a fixed switch (`const`). */
export const isHidden = (f: TargetKindField): boolean => f.same_as !== undefined || f.const !== undefined;

/** The value a field starts from, from what the API shows (undefined: a new target). */
function startOf(f: TargetKindField, shown: unknown, siblings: Value): unknown {
  const value = shown === undefined ? structuredClone(f.default) : shown;
  // write-only: the stored value can never be read back, so an edit must type it again
  if (shown !== undefined && isCredential(f, siblings)) return '';
  if (f.type === 'object' && isObject(value)) return startObject(f.fields ?? [], value);
  if (f.type === 'variant' && isObject(value)) {
    const variant = f.variants?.find((v) => v.value === value[f.tag!]);
    return { ...startObject(variant?.fields ?? [], value), [f.tag!]: value[f.tag!] };
  }
  if (f.type === 'list' && Array.isArray(value))
    return value.map((item) =>
      isObject(item)
        ? f.items?.type === 'variant'
          ? startOf(f.items, item, {})
          : startObject(f.items?.fields ?? [], item)
        : item,
    );
  return value;
}

/** The form's value for these fields: a new target's defaults, or an edited target's view. */
export function startObject(fields: TargetKindField[], shown: Value | undefined): Value {
  const out: Value = {};
  for (const f of fields) {
    const v = startOf(f, shown?.[f.name], shown ?? {});
    if (v !== undefined) out[f.name] = v;
    else if (f.type === 'variant' && f.variants?.[0]) out[f.name] = { [f.tag!]: f.variants[0].value };
    else if (f.type === 'string' && f.required) out[f.name] = '';
  }
  return out;
}

/** A new row of a list: its fields' defaults, or a variant's first shape. */
export function startItem(item: TargetKindField): Value {
  if (item.type === 'variant' && item.variants?.[0])
    return { [item.tag!]: item.variants[0].value, ...startObject(item.variants[0].fields, undefined) };
  return startObject(item.fields ?? [], undefined);
}

/** What a save sends for these fields: unset optional values left out, the target's own fields too. */
export function inputOf(fields: TargetKindField[], value: Value): Value {
  const out: Value = {};
  for (const f of fields) {
    if (f.same_as) continue;
    if (f.const !== undefined) {
      out[f.name] = f.const;
      continue;
    }
    const v = fieldInput(f, value[f.name]);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

function fieldInput(f: TargetKindField, v: unknown): unknown {
  if (v === undefined) return undefined;
  if (v === null) return f.default === null ? null : undefined;
  if (f.type === 'string') return v === '' && !f.required ? undefined : v;
  if (f.type === 'object' && isObject(v)) return inputOf(f.fields ?? [], v);
  if (f.type === 'variant' && isObject(v)) {
    const variant = f.variants?.find((x) => x.value === v[f.tag!]);
    return { [f.tag!]: v[f.tag!], ...inputOf(variant?.fields ?? [], v) };
  }
  if (f.type === 'list' && Array.isArray(v))
    return v.map((item) => (f.items && isObject(item) ? fieldInput(f.items, item) : item));
  return v;
}

/** Every API field path the form shows for these fields and this value (`config.auth.token`). */
export function pathsOf(fields: TargetKindField[], value: Value, prefix: string): string[] {
  return fields.flatMap((f) => {
    if (isHidden(f)) return [];
    const path = prefix === '' ? f.name : `${prefix}.${f.name}`;
    const v = value[f.name];
    if (f.type === 'object' && isObject(v)) return [path, ...pathsOf(f.fields ?? [], v, path)];
    if (f.type === 'variant' && isObject(v))
      return [
        path,
        `${path}.${f.tag}`,
        ...pathsOf(f.variants?.find((x) => x.value === v[f.tag!])?.fields ?? [], v, path),
      ];
    if (f.type === 'list' && Array.isArray(v) && f.items?.type === 'object')
      return [path, ...v.flatMap((item, i) => pathsOf(f.items!.fields ?? [], item as Value, `${path}[${i}]`))];
    if (f.type === 'list' && Array.isArray(v) && f.items?.type === 'variant') {
      const item = f.items;
      return [
        path,
        ...v.flatMap((row, i) => [
          `${path}[${i}]`,
          `${path}[${i}].${item.tag}`,
          ...pathsOf(
            item.variants?.find((x) => x.value === (row as Value)[item.tag!])?.fields ?? [],
            row as Value,
            `${path}[${i}]`,
          ),
        ]),
      ];
    }
    return [path];
  });
}

/** A retry schedule typed as delays in ms (`1000, 5000`); empty is the kind's default (null), `none` no retries. */
export function parseSchedule(text: string): number[] | null {
  if (text.trim().toLowerCase() === 'none') return [];
  const parts = text.split(/[\s,]+/).filter(Boolean);
  return parts.length === 0 ? null : parts.map(Number);
}
