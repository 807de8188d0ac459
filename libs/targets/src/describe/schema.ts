import { isCredential, REDACTED } from './field';
import type { Field, Fields, KindDescription } from './field';

/*
 * JSON Schema 2020-12 (the dialect of OpenAPI 3.1) of a kind's config, derived from its
 * description: what a create may send (`input`) and what the API shows (`view`). The kind's own
 * validation stays the judge of the finer rules (URL forms, header rules); these state the
 * fields, their types and limits, so the document and the validator can never disagree on shape.
 */
export type JsonSchema = Record<string, unknown>;

const describe = (field: Field): JsonSchema => ({
  ...(field.help ? { description: field.help } : {}),
  ...(field.example !== undefined && !field.credential ? { examples: [field.example] } : {}),
});
const nullable = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: 'null' }] });

function inputOf(field: Field): JsonSchema {
  switch (field.type) {
    case 'string': {
      const s: JsonSchema = { type: 'string', ...describe(field) };
      // a trimmed value is measured after trimming, which a schema cannot say
      if (!field.trim && field.minLength !== undefined) s.minLength = field.minLength;
      if (!field.trim && field.maxLength !== undefined) s.maxLength = field.maxLength;
      if (field.format === 'email') s.format = 'email';
      return s;
    }
    case 'boolean':
      return { type: 'boolean', ...describe(field) };
    case 'integer':
      return {
        type: 'integer',
        ...(field.minimum !== undefined ? { minimum: field.minimum } : {}),
        ...(field.maximum !== undefined ? { maximum: field.maximum } : {}),
        ...describe(field),
      };
    case 'number':
      return { type: 'number', ...describe(field) };
    case 'enum':
      return { type: 'string', enum: field.values.map((v) => v.value), ...describe(field) };
    case 'object':
      return { ...objectInput(field.fields), ...describe(field) };
    case 'list':
      return {
        type: 'array',
        items: inputOf(field.items),
        ...(field.maxItems !== undefined ? { maxItems: field.maxItems } : {}),
        ...describe(field),
      };
    case 'variant':
      return {
        type: 'object',
        required: [field.tag],
        properties: { [field.tag]: { type: 'string', enum: field.variants.map((v) => v.value) } },
        oneOf: field.variants.map((v) => {
          const own = objectInput(v.fields);
          return {
            ...own,
            properties: { [field.tag]: { const: v.value }, ...own.properties },
            required: [field.tag, ...(own.required as string[])],
          };
        }),
        ...describe(field),
      };
  }
}

function objectInput(fields: Fields): JsonSchema & { properties: JsonSchema } {
  const properties: JsonSchema = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    // an optional setting may be sent as null: "unset"
    properties[name] = field.required ? inputOf(field) : nullable(inputOf(field));
    // a setting that is the target's own field is filled from it when absent
    if (field.required && !field.sameAs) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function viewOf(field: Field, credential: boolean): JsonSchema {
  if (credential) {
    return field.mask
      ? { type: 'string', description: `${field.label}, masked: what it holds is never returned` }
      : { type: 'string', const: REDACTED, description: `${field.label}: set; never returned` };
  }
  switch (field.type) {
    case 'object':
      return objectView(field.fields);
    case 'list':
      return { type: 'array', items: viewOf(field.items, false) };
    case 'variant':
      return {
        oneOf: field.variants.map((v) => {
          const own = objectView(v.fields);
          return {
            ...own,
            properties: { [field.tag]: { const: v.value }, ...(own.properties as JsonSchema) },
            required: [field.tag, ...(own.required as string[])],
          };
        }),
      };
    default: {
      const s = { ...inputOf(field) };
      delete s.minLength;
      delete s.maxLength;
      return s;
    }
  }
}

function objectView(fields: Fields): JsonSchema {
  const properties: JsonSchema = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const conditional = typeof field.credential === 'object';
    let s = conditional
      ? {
          type: 'string',
          description: `${field.label}; \`${REDACTED}\` when \`${(field.credential as { when: string }).when}\` is true`,
        }
      : viewOf(field, isCredential(field, {}));
    if (field.default === null) s = nullable(s);
    properties[name] = s;
    // shown whenever it is set, and a setting with a default is always set
    if (field.required || field.default !== undefined) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/** One described value outside a config (a target's own field, e.g. `routing`): what a request may send. */
export function fieldInputSchema(field: Field): JsonSchema {
  const s = inputOf(field);
  return field.default === null ? nullable(s) : s;
}

/** …and how the API shows it. */
export function fieldViewSchema(field: Field): JsonSchema {
  const s = viewOf(field, false);
  return field.default === null ? nullable(s) : s;
}

/** What a create sends as `config` for this kind. */
export function configInputSchema(description: KindDescription): JsonSchema {
  return { ...objectInput(description.fields), description: description.label };
}

/** The kind's config as the API shows it, every credential masked. */
export function configViewSchema(description: KindDescription): JsonSchema {
  return { ...objectView(description.fields), description: description.label };
}
