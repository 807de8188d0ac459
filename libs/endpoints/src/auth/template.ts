/**
 * The signed-content template of a custom HMAC scheme: literal text and {{variables}}, the
 * same brace syntax as the spec's header templates ({{uuid}}). Parsed once at save time to
 * reject unknown variables, and again by the gateway to build the bytes it MACs.
 */
const TEMPLATE_VARIABLES = ['body', 'timestamp', 'id', 'url'] as const;
type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

type TemplatePart = { kind: 'text'; text: string } | { kind: 'variable'; name: TemplateVariable };

type TemplateParse = { ok: true; parts: TemplatePart[] } | { ok: false; message: string };

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

function isVariable(name: string): name is TemplateVariable {
  return (TEMPLATE_VARIABLES as readonly string[]).includes(name);
}

export function parseSignedContentTemplate(template: string): TemplateParse {
  const parts: TemplatePart[] = [];
  const unknown: string[] = [];
  let last = 0;
  const pushText = (text: string): void => {
    if (text.length > 0) parts.push({ kind: 'text', text });
  };
  for (const match of template.matchAll(PLACEHOLDER)) {
    pushText(template.slice(last, match.index));
    const name = match[1] ?? '';
    if (isVariable(name)) parts.push({ kind: 'variable', name });
    else unknown.push(name);
    last = (match.index ?? 0) + match[0].length;
  }
  pushText(template.slice(last));
  if (unknown.length > 0) {
    const list = unknown.map((n) => `{{${n}}}`).join(', ');
    return {
      ok: false,
      message: `unknown variable ${list}; allowed: ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(', ')}`,
    };
  }
  if (parts.some((p) => p.kind === 'text' && (p.text.includes('{{') || p.text.includes('}}')))) {
    return { ok: false, message: 'unbalanced {{ or }}' };
  }
  return { ok: true, parts };
}

export function templateVariables(parts: readonly TemplatePart[]): Set<TemplateVariable> {
  return new Set(parts.flatMap((p) => (p.kind === 'variable' ? [p.name] : [])));
}
