import type { OpenApiDocument } from './document';
import type { Schema } from './kit';

/*
 * The OpenAPI document as one static HTML page, served at `/v1/docs`: every operation under
 * its tag — method, path, role, parameters, body and responses — and every named schema with
 * its fields, linked. Rendered here rather than by a browser bundle (Redoc, Swagger UI): the
 * page needs no script, no network and no dependency, and it is built once per process.
 */

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

const escape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The little Markdown the document's descriptions use: `code` and **bold**, on escaped text. */
const text = (s: unknown): string =>
  typeof s === 'string'
    ? escape(s)
        .replace(/`([^`]+)`/g, '<code>$1</code>')
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/\n\n/g, '<br><br>')
    : '';

const refName = (ref: string): string => ref.split('/').pop() ?? ref;
const schemaLink = (ref: string): string => `<a href="#schema-${escape(refName(ref))}">${escape(refName(ref))}</a>`;

/** A one-line summary of a schema's type and bounds. */
function typeOf(s: Schema): string {
  if (typeof s.$ref === 'string') return schemaLink(s.$ref);
  const parts: string[] = [];
  const types = ([] as unknown[]).concat(s.type ?? []);
  if (s.type === 'array' && s.items) parts.push(`list of ${typeOf(s.items as Schema)}`);
  else if (types.length) parts.push(types.map(String).map(escape).join(' or '));
  if ('const' in s) parts.push(`= <code>${escape(JSON.stringify(s.const))}</code>`);
  if (Array.isArray(s.enum)) parts.push(`one of ${s.enum.map((v) => `<code>${escape(String(v))}</code>`).join(', ')}`);
  for (const [k, label] of [
    ['minimum', '≥'],
    ['maximum', '≤'],
    ['minLength', 'length ≥'],
    ['maxLength', 'length ≤'],
    ['minItems', 'items ≥'],
    ['maxItems', 'items ≤'],
  ] as const) {
    if (typeof s[k] === 'number') parts.push(`${label} ${s[k] as number}`);
  }
  if (s.format) parts.push(escape(String(s.format)));
  if ('default' in s) parts.push(`default <code>${escape(JSON.stringify(s.default))}</code>`);
  if (s.readOnly) parts.push('read-only');
  return parts.join(', ') || 'any';
}

/** A schema with its fields, nested; a named schema is a link to its own section. */
function schemaHtml(s: Schema, depth = 0): string {
  if (depth > 6) return '';
  const choices = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (choices)
    return `<div class="choice">one of:<ul>${choices.map((c) => `<li>${typeOf(c)}${schemaHtml(c, depth + 1)}</li>`).join('')}</ul></div>`;
  const item = s.type === 'array' ? (s.items as Schema | undefined) : undefined;
  if (item && !item.$ref) return schemaHtml(item, depth + 1);
  const props = s.properties as Record<string, Schema> | undefined;
  if (!props) return '';
  const required = new Set((s.required as string[] | undefined) ?? []);
  const rows = Object.entries(props).map(
    ([name, p]) =>
      `<li><code>${escape(name)}</code>${required.has(name) ? ' <em>required</em>' : ''} — ${typeOf(p)}${p.description ? `: ${text(p.description)}` : ''}${schemaHtml(p, depth + 1)}</li>`,
  );
  return `<ul class="fields">${rows.join('')}</ul>`;
}

function operationHtml(doc: OpenApiDocument, method: string, path: string, op: Schema): string {
  const params = (op.parameters as Schema[] | undefined) ?? [];
  const body = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content?.[
    'application/json'
  ]?.schema;
  const responses = Object.entries(op.responses as Record<string, Schema>).map(([status, r]) => {
    // a shared response: its description here, its body in its own section
    if (typeof r.$ref === 'string')
      return `<li><strong>${escape(status)}</strong> ${text(doc.components.responses[refName(r.$ref)]?.description)} (${schemaLink(r.$ref)})</li>`;
    const content = r.content as Record<string, { schema: Schema }> | undefined;
    const schema = content ? Object.values(content)[0]?.schema : undefined;
    return `<li><strong>${escape(status)}</strong> ${text(r.description)}${schema ? ` — ${typeOf(schema)}${schemaHtml(schema)}` : ''}</li>`;
  });
  return `<section class="op" id="${escape(String(op.operationId))}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code> ${op['x-relay-role'] ? `<span class="role">${escape(String(op['x-relay-role']))}</span>` : '<span class="role open">no key</span>'}</h3>
<p><strong>${text(op.summary)}</strong> <small>(${escape(String(op.operationId))})</small></p>
${op.description ? `<p>${text(op.description)}</p>` : ''}
${params.length ? `<h4>Parameters</h4><ul class="fields">${params.map((p) => `<li><code>${escape(String(p.name))}</code> in ${escape(String(p.in))} — ${typeOf(p.schema as Schema)}${p.description ? `: ${text(p.description)}` : ''}</li>`).join('')}</ul>` : ''}
${body ? `<h4>Body</h4><p>${typeOf(body)}</p>${schemaHtml(body)}` : ''}
<h4>Responses</h4><ul class="responses">${responses.join('')}</ul>
</section>`;
}

export function renderReferencePage(doc: OpenApiDocument): string {
  const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m]! })),
  );
  const byTag = doc.tags.map((t) => ({
    tag: t,
    ops: ops.filter((o) => (o.op.tags as string[]).includes(String(t.name))),
  }));
  const toc = byTag
    .map(
      ({ tag, ops: list }) =>
        `<li>${escape(String(tag.name))}<ul>${list.map((o) => `<li><a href="#${escape(String(o.op.operationId))}">${o.method.toUpperCase()} ${escape(o.path)}</a></li>`).join('')}</ul></li>`,
    )
    .join('');
  const sections = byTag
    .map(
      ({ tag, ops: list }) =>
        `<h2>${escape(String(tag.name))}</h2><p>${text(tag.description)}</p>${list.map((o) => operationHtml(doc, o.method, o.path, o.op)).join('')}`,
    )
    .join('');
  const named = [
    ...Object.entries(doc.components.schemas).map(([n, s]) => ({ n, s })),
    ...Object.entries(doc.components.responses).map(([n, r]) => ({
      n,
      s: {
        description: r.description,
        ...(Object.values((r.content ?? {}) as Record<string, { schema: Schema }>)[0]?.schema ?? {}),
      } as Schema,
    })),
  ];
  const schemas = named
    .map(
      ({ n, s }) =>
        `<section class="schema" id="schema-${escape(n)}"><h3>${escape(n)}</h3>${s.description ? `<p>${text(s.description)}</p>` : ''}<p>${typeOf(s)}</p>${schemaHtml(s)}</section>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(String(doc.info.title))} ${escape(String(doc.info.version))}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:0 .2em;border-radius:3px}.op,.schema{border-top:1px solid #ddd;padding-top:.5rem;margin-top:1rem}
.method{font-weight:bold;padding:0 .4em;border-radius:3px;color:#fff;background:#555}.get{background:#2a7}.post{background:#27c}.patch{background:#c82}.delete{background:#c33}
.role{font-size:.8em;border:1px solid #888;border-radius:3px;padding:0 .3em}.open{color:#888}ul.fields{margin:.2rem 0}
</style></head><body>
<h1>${escape(String(doc.info.title))} <small>${escape(String(doc.info.version))}</small></h1>
<p>${text(doc.info.description)}</p>
<p>Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI ${escape(doc.openapi)}).</p>
<nav><h2>Operations</h2><ul>${toc}</ul></nav>
${sections}
<h2>Schemas</h2>${schemas}
</body></html>`;
}
