import type { Field, Fields, KindDescription } from './field';

/*
 * A description as JSON, for the dashboard's forms (`GET /v1/target-kinds`): everything but the
 * hooks, which stay on the server — the API's answer is the final word on a value.
 */
export type WireField = Record<string, unknown> & { name: string; type: Field['type'] };

const defined = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

function wireField(name: string, field: Field): WireField {
  const common = {
    name,
    type: field.type,
    label: field.label,
    help: field.help,
    // an example of a credential is still only an example, but the form shows it as a hint only
    example: field.example,
    required: field.required === true,
    credential: field.credential === undefined ? false : field.credential,
    default: field.default,
    same_as: field.sameAs,
  };
  switch (field.type) {
    case 'string':
      return defined({
        ...common,
        min_length: field.minLength,
        max_length: field.maxLength,
        pattern: field.pattern,
        pattern_message: field.patternMessage,
        format: field.format,
        multiline: field.multiline,
      }) as WireField;
    case 'boolean':
      return defined({ ...common, const: field.const }) as WireField;
    case 'integer':
      return defined({ ...common, minimum: field.minimum, maximum: field.maximum }) as WireField;
    case 'number':
      return defined(common) as WireField;
    case 'enum':
      return defined({ ...common, values: field.values }) as WireField;
    case 'object':
      return defined({ ...common, fields: wireFields(field.fields) }) as WireField;
    case 'list':
      return defined({ ...common, items: wireField('item', field.items), max_items: field.maxItems }) as WireField;
    case 'variant':
      return defined({
        ...common,
        tag: field.tag,
        variants: field.variants.map((v) => ({ value: v.value, label: v.label, fields: wireFields(v.fields) })),
      }) as WireField;
  }
}

export function wireFields(fields: Fields): WireField[] {
  return Object.entries(fields).map(([name, field]) => wireField(name, field));
}

export function wireDescription(description: KindDescription): { label: string; help?: string; fields: WireField[] } {
  return defined({ label: description.label, help: description.help, fields: wireFields(description.fields) }) as {
    label: string;
    fields: WireField[];
  };
}
