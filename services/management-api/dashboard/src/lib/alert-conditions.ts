/**
 * The kinds of alert condition and their fields, read from the management API's own OpenAPI
 * document (`AlertRuleInput.conditions`), which is built from the one description in
 * @relay/alerts (describe.ts): the form never repeats a field, a limit or a default.
 */
export interface ConditionFieldView {
  name: string;
  label: string;
  help: string;
  type: 'target' | 'endpoint' | 'integer' | 'enum';
  required: boolean;
  min?: number;
  max?: number;
  default?: number | string;
  values?: string[];
}

export interface ConditionKindView {
  kind: string;
  label: string;
  help: string;
  fields: ConditionFieldView[];
}

type JsonSchema = Record<string, any>;

export function conditionKindsOf(doc: JsonSchema): ConditionKindView[] {
  const variants: JsonSchema[] = doc?.components?.schemas?.AlertRuleInput?.properties?.conditions?.items?.oneOf ?? [];
  return variants.map((v) => {
    const required = new Set<string>(v.required ?? []);
    const fields = Object.entries<JsonSchema>(v.properties ?? {})
      .filter(([name]) => name !== 'kind')
      .map(([name, s]): ConditionFieldView => {
        const base = {
          name,
          label: String(s.title ?? name),
          help: String(s.description ?? ''),
          required: required.has(name),
        };
        if (typeof s.pattern === 'string')
          return { ...base, type: s.pattern.startsWith('^ep_') ? 'endpoint' : 'target' };
        if (Array.isArray(s.enum)) return { ...base, type: 'enum', values: s.enum as string[], default: s.default };
        return { ...base, type: 'integer', min: s.minimum, max: s.maximum, default: s.default };
      });
    return {
      kind: String(v.properties.kind.const),
      label: String(v.title ?? v.properties.kind.const),
      help: String(v.properties.kind.description ?? ''),
      fields,
    };
  });
}

/** A condition as the form holds it: every field as text, as the inputs do. */
export type ConditionDraft = Record<string, string>;

export function draftOf(kind: ConditionKindView, from: Record<string, unknown> = {}): ConditionDraft {
  const d: ConditionDraft = { kind: kind.kind };
  for (const f of kind.fields) {
    const v = from[f.name] ?? f.default;
    d[f.name] = v === undefined || v === null ? '' : String(v);
  }
  return d;
}

/** The condition as the API takes it: empty optional fields left out, integers as numbers. */
export function conditionOf(kind: ConditionKindView, d: ConditionDraft): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: kind.kind };
  for (const f of kind.fields) {
    const v = (d[f.name] ?? '').trim();
    if (v === '') continue;
    out[f.name] = f.type === 'integer' && /^-?\d+$/.test(v) ? Number(v) : v;
  }
  return out;
}
